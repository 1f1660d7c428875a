"""One catalogue case through the runtime, its record, its outcomes and what its program contains."""
