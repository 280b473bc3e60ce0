"""BM25 column weights, the same on every engine: the fact's own words count fully, the
context it was stated in (source excerpt, neighbouring turn) counts for less."""

BODY_WEIGHT = 1.0
CONTEXT_WEIGHT = 0.6
