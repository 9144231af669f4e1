//! nab-reports: under construction in this session.
