//! nab-agent: under construction in this session.
