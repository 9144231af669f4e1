package dev.logship.cli;

/** Printed by {@code logship --version}. */
public final class Version {
    public static final String VERSION = "2.9.4";

    private Version() {}
}
