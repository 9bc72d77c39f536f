"""``accsat advise``: how a kernel's memory accesses meet the GPU, read from its SSA.

For each kernel: the loop index that varies across the lanes of a warp
(``thread``), the stride of every global load and store along it and its
class (``strides``: uniform, coalesced, strided, uncoalesced, unknown, with
the 128-byte lines a warp of 32 touches), loads of one array that neighbouring
lanes or consecutive iterations of an inner loop repeat (``neighbours``), and,
where gcc's nvptx offload compiler is installed, registers and an sm_80
occupancy estimate per variant (``pressure``). ``analyse`` runs them on the
code as written and as accsat rewrites it; ``report`` prints a table or JSON.
See docs/advise.md for the rules.
"""
