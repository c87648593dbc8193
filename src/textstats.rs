//! Fast per-segment text statistics: n-gram matches for BLEU/chrF (owned by the MT work).
