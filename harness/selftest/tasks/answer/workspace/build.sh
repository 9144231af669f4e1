# The project's build step (nothing to build yet).
exit 0
