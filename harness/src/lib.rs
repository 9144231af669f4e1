//! nab-harness: under construction in this session.
