package org.textstats;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Splits text into lower-case words: letters and apostrophes inside a word. */
public final class Tokenizer {
    private final int minLength;

    public Tokenizer(int minLength) {
        this.minLength = minLength;
    }

    public List<String> words(String text) {
        List<String> out = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        for (int i = 0; i <= text.length(); i++) {
            char c = i < text.length() ? text.charAt(i) : ' ';
            boolean inner = c == '\'' && word.length() > 0 && i + 1 < text.length() && Character.isLetter(text.charAt(i + 1));
            if (Character.isLetter(c) || inner) {
                word.append(c);
            } else if (word.length() > 0) {
                if (word.length() >= minLength) {
                    out.add(word.toString().toLowerCase(Locale.ROOT));
                }
                word.setLength(0);
            }
        }
        return out;
    }
}
