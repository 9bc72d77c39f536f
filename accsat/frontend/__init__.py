"""Frontend: preprocess with our fake libc, parse with pycparser, find the kernels."""
