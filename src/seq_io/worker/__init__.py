"""The reference worker (`iospec worker`): the observation stream of spec/stream.md over real HTTP.

`host` puts the pure keeper behind an asyncio clock and futures, `app` routes and answers requests, `server` is
the worker's own HTTP/1.1 server (h11 on asyncio streams) with its bounds and shutdown, `cli` is the command. Only
`cli` is imported by `iospec` itself; the others need the HTTP extra (`sequences-io-spec[http]`). Users'
documentation: conformance/worker.md.
"""
