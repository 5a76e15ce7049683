"""The prober (`iospec probe`): the stream scenario vectors replayed against a live worker over HTTP.

`plan` works out a scenario's timing on a real clock (what cannot be replayed, how slowly the rest must be), `replay`
sends one scenario and attributes each answer to its operation, `run` decides per case (not applicable, not
runnable on this worker, or replayed and judged) and `cli` is the command, reporting through the runner's writers
and expected-failure list. Only `cli` is imported by `iospec` itself; the rest needs the HTTP extra. Users'
documentation: conformance/worker.md.
"""
