//! Fast CoNLL-U evaluation helpers (owned by the CoNLL-U work).
