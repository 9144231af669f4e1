package org.textstats;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Word frequencies, most frequent first (ties alphabetical). */
public final class WordCounter {
    private final Tokenizer tokenizer;

    public WordCounter(Tokenizer tokenizer) {
        this.tokenizer = tokenizer;
    }

    public LinkedHashMap<String, Integer> count(String text) {
        Map<String, Integer> counts = new HashMap<>();
        for (String w : tokenizer.words(text)) {
            counts.merge(w, 1, Integer::sum);
        }
        List<Map.Entry<String, Integer>> entries = new ArrayList<>(counts.entrySet());
        entries.sort((a, b) -> b.getValue().equals(a.getValue())
                ? a.getKey().compareTo(b.getKey()) : b.getValue() - a.getValue());
        LinkedHashMap<String, Integer> out = new LinkedHashMap<>();
        for (Map.Entry<String, Integer> e : entries) {
            out.put(e.getKey(), e.getValue());
        }
        return out;
    }
}
