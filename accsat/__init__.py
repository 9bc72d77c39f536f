"""accsat: source-to-source optimizer for OpenACC/OpenMP C by equality saturation.

The pipeline, one subpackage per stage:
frontend (preprocess, parse, find kernels) -> ssa (structured SSA with memory
versions) -> egraph (egglog saturation) -> extract (ILP over the e-graph) ->
codegen (temporaries, bulk load, splicing back into the user's text).
"""

__version__ = "0.1.0"
