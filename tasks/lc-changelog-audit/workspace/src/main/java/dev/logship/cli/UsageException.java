package dev.logship.cli;

/** A command-line mistake; reported as "logship: MESSAGE" with exit status 2. */
public final class UsageException extends Exception {
    public UsageException(String message) {
        super(message);
    }
}
