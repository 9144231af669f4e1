package com.acme.stock;

import java.util.Locale;
import java.util.Objects;

/**
 * A stock keeping unit code as people type it: "AB-1234", "ab 1234" and "AB1234" are the same
 * SKU. Case, spaces and hyphens do not matter; the code as typed is kept for display.
 */
public final class Sku implements Comparable<Sku> {
    private final String raw;

    private Sku(String raw) {
        this.raw = raw;
    }

    public static Sku of(String text) {
        Objects.requireNonNull(text, "sku");
        String trimmed = text.strip();
        if (normalize(trimmed).isEmpty()) {
            throw new IllegalArgumentException("empty SKU: '" + text + "'");
        }
        return new Sku(trimmed);
    }

    static String normalize(String text) {
        StringBuilder b = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c != '-' && c != ' ') b.append(c);
        }
        return b.toString().toUpperCase(Locale.ROOT);
    }

    /** The canonical form: upper case, without spaces and hyphens. */
    public String canonical() {
        return normalize(raw);
    }

    /** The vendor prefix: the letters before the first digit of the canonical form. */
    public String vendor() {
        String c = canonical();
        int i = 0;
        while (i < c.length() && Character.isLetter(c.charAt(i))) i++;
        return c.substring(0, i);
    }

    public boolean equals(Sku other) {
        return other != null && canonical().equals(other.canonical());
    }

    @Override
    public int hashCode() {
        return raw.hashCode();
    }

    @Override
    public int compareTo(Sku other) {
        return canonical().compareTo(other.canonical());
    }

    @Override
    public String toString() {
        return raw;
    }
}
