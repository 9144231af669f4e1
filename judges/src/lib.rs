//! nab-judges: under construction in this session.
