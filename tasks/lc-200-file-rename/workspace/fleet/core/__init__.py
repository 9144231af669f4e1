"""fleet core library (API v3). See MIGRATION.md."""
