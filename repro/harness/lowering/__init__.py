"""How a case is lowered: the named lowerings (stock, the workaround, none), a candidate partitioner
under review, ExecuTorch with our patch series applied, and torch's CIA registry materialized once."""
