module seq-io-spec.example/seqio

go 1.25
