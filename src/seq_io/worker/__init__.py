"""The reference worker (`iospec worker`): the observation stream of spec/stream.md over real HTTP.

`host` puts the pure keeper behind an asyncio clock and futures, `app` is the HTTP surface (Starlette), `serve` runs
it on uvicorn with the worker's own shutdown, `cli` is the command. Only `cli` is imported by `iospec` itself; the
others need the HTTP extra (`sequences-io-spec[http]`). Users' documentation: conformance/worker.md.
"""
