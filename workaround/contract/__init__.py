"""The contract between the two deployables: what the partitioner writes into a delegate and the checker reads
back from a shipped ``.pte`` — tensor names that mark honoured dim orders and proven int64 ranges, the compile
specs a partition carries, the dim-order comparison both use, the OpenVINO types both annotate with, and the
mark of a partition the workaround made. Standard library only: both sides import it."""
