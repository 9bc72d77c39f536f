"""E-graph stage: the SSA terms go into egglog, rules from rules/ run under limits."""
