//! Constituency-tree scoring in the manner of EVALB (owned by the trees work).
