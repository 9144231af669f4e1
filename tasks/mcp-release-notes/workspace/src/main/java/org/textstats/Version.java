package org.textstats;

/** The library's version, printed by {@code textstats --version}. */
public final class Version {
    public static final String VERSION = "2.3.0";

    private Version() {}
}
