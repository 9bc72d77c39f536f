"""SSA stage: a kernel body becomes hash-consed terms plus structured statements."""
