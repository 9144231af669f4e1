#!/usr/bin/env python3
"""Writes workspace/docs/kvx-spec.md deterministically (about 366 KB, 110k o200k tokens):
hand-written core sections with numbered rules (R-1 ...), then generated bulk that a reader
of the core does not need (130 examples, a 41-area registry, four profiles with their own
rules) and a corrigenda register for all five documents of the volume. The facts a
conforming parser needs are spread from the first lines to the last and share no
distinctive word with the instruction; they chain:
section 0.2: a reader is bound by sections 1-8, the annex subsections of 0.3 and the
  corrigenda whose "Applies to" names this document's code (KVX-C, 0.1);
section 0.4: corrigendum C-23 is withdrawn (by number only; C-23 is near the end);
R-10/R-11 fold keys by the definition in section 1.1 (R-2: capitals to small forms, '-' ->
  '_'); R-11 sends the reader to D.17 (binding through 0.3, titled neither "normative" nor
  "reserved") in the middle of the registry;
Annex Q: C-7 and C-12 name only the rules they change (R-21, R-14); C-18 lifts the D.17
  prefix it describes ("keys private to one installation") without naming it; C-31 adds
  `\r` to R-15's table; C-4, C-9, C-14, C-25, C-29 are the profiles' and do not apply.
Run: python3 generate_spec.py"""
import os
import random

rng = random.Random(12)
HERE = os.path.dirname(os.path.abspath(__file__))

HEAD = r'''# KVX 1.2 — a key/value configuration format

Status: Standard. This document defines version 1.2 of KVX. The key words MUST, MUST NOT,
SHOULD and MAY are to be interpreted as in RFC 2119. Rules are numbered (**R-1**, **R-2**,
...) so that other documents and the corrigenda can refer to them. Section 0 says which
parts of the volume are normative, and for whom.

## 0. About this document

### 0.1 Documents and codes

KVX is published as one volume. Each document in the volume has a code, and every
numbered rule, registry entry and corrigendum belongs to exactly one document:

| code | document | where | rules numbered |
|---|---|---|---|
| KVX-C | the core format (this document proper) | sections 1 to 10 and Annexes A to G | R-1, R-2, ... |
| KVX-V | the variable-mapping profile | Annex P.1 | V-1, V-2, ... |
| KVX-S | the typed-schema profile | Annex P.2 | S-1, S-2, ... |
| KVX-I | the inclusion profile | Annex P.3 | I-1, I-2, ... |
| KVX-W | the writer profile | Annex P.4 | W-1, W-2, ... |

A *reader* is a program that turns a document into (section, key, value) triples; a
*parser* in this document is a reader. A profile binds only the implementations that
claim it. Nothing in Annex P changes what a reader of the core produces. Annex Q, the
corrigenda register, serves every document of the volume.

### 0.2 What binds a reader

For a reader of the core, the binding text is: sections 1 to 8; those annex subsections
that the table in §0.3 lists; and every corrigendum of Annex Q whose *Applies to* line
names the code of this document. Where such a corrigendum contradicts the text it
corrects, the corrigendum prevails. Everything else (sections 9 and 10, the rest of the
annexes, the profiles of Annex P, and corrigenda to the other documents) is informative
for a reader of the core.

### 0.3 Annex subsections that bind a reader

| subsection | subject |
|---|---|
| D.17 | namespaces held back from registration (see R-11) |
| G.4 | bytes outside ASCII (see R-3) |
| G.9 | numbering of lines in diagnostics (see R-26) |

No other annex subsection binds a reader, whatever its title says; the rules of Annex P
bind the implementations of their own profile only.

### 0.4 Notes to this printing

This printing incorporates the corrigenda register (Annex Q) as approved at the close of
its last review cycle. Two decisions were taken after the register was typeset and are
recorded here instead:

- Corrigendum C-23 is withdrawn in full. Implementations that followed it MUST revert to
  the text it had corrected, which stands as first published.
- Corrigendum C-31 was approved with its text as printed; its rationale paragraph was
  shortened for this printing.

Page and line references in the register refer to this printing.

## 1. Introduction

KVX is a line-oriented configuration format in the INI family. It was designed for
configuration files that are written by people, merged by tools and read by many
implementations in different languages. Its goals, in order, are: (1) a document means
the same thing to every conforming parser; (2) a person can read and edit it without a
manual; (3) a parser fits in a few hundred lines of C.

A KVX document is a sequence of lines. Each line is blank, a comment, a section header or
an entry. Entries belong to the section opened by the closest preceding section header.
The result of parsing a document is a set of (section, key, value) triples, where every
value is a string: KVX has no numbers, booleans or lists; applications interpret values.

### 1.1 Terminology

- *document*: the whole input text.
- *line*: the text between two line terminators (§2.2), without the terminator.
- **R-1** *whitespace*: space (U+0020) and horizontal tab (U+0009).
- *entry*: a line of the form `key = value`.
- **R-2** *folding* a key: each of the 26 capitals `A`–`Z` is replaced by the
  corresponding small form `a`–`z`, and every hyphen-minus `-` by a low line `_`; all
  other characters are kept. The result is the key's *folded form*. Two keys are *the
  same key* when their folded forms are equal: `Max-Conn`, `max_conn` and `MAX_CONN` are
  one key. People write either spelling, and tools that map keys to environment variables
  cannot use `-`.
- *conforming parser*: a parser that accepts every valid document, produces exactly the
  triples this specification defines for it, and rejects every invalid document.

### 1.2 Relationship to earlier versions

KVX 1.0 (2016) and 1.1 (2019) documents are KVX 1.2 documents with the same meaning,
except where Annex C says otherwise. A parser MUST NOT try to detect the version of a
document; there is no version marker.

## 2. Encoding and lines

### 2.1 Character encoding

**R-3** A document is UTF-8. A parser MAY reject invalid UTF-8 but is not required to;
KVX syntax only uses ASCII characters, so a parser that treats the input as bytes and
passes other bytes through unchanged is conforming (see also G.4).

### 2.2 Line terminators

**R-4** Lines end with LF (U+000A) or CR LF (U+000D U+000A). The terminator is not part
of the line. The last line of a document MAY lack a terminator. A CR that is not followed
by LF is an ordinary character. Line numbers start at 1 and count terminators, so a
document's n-th line is line n regardless of which terminators it uses.

### 2.3 Leading and trailing whitespace

**R-5** Whitespace at the start and at the end of every line is ignored; it never changes
the meaning of a document. Indentation is therefore allowed everywhere and carries no
meaning (there is no nesting).

## 3. Blank lines and comments

### 3.1 Blank lines

**R-6** A line that is empty or contains only whitespace is blank and is ignored.

### 3.2 Comment lines

**R-7** A line whose first non-whitespace character is `#` or `;` is a comment and is
ignored in its entirety. Comments cannot be continued onto the next line.

```
# a comment
   ; an indented comment
```

## 4. Entries

**R-8** An entry is a key, an equals sign and a value: `key = value`. Whitespace around
the equals sign is ignored. The first `=` on the line separates key and value; later `=`
characters are part of the value.

### 4.1 Keys

**R-9** A key is a non-empty sequence of the characters `A`–`Z`, `a`–`z`, `0`–`9`, `_`,
`.` and `-`. Any other character in a key makes the document invalid.

**R-10** A reader MUST keep and report every key in its folded form (R-2),
and a request for the value of a key MUST fold the key it is given, so that any spelling
of a key finds it. Every rule of this specification that compares keys compares folded
forms; section names are never folded (§6.1).

**R-11** A key whose folded form begins with one of the prefixes that D.17 holds back
makes the document invalid. The check applies to the folded form, so the spelling of the
key does not matter.

**R-12** A key MUST NOT be longer than the limit of §4.5.

### 4.2 Bare values

**R-13** A value that does not start with a double quote is *bare*. A bare value extends
to the end of the line, with surrounding whitespace removed, except that an inline
comment ends it: a `#` that is preceded by whitespace starts a comment that runs to the
end of the line. A `#` that is not preceded by whitespace is part of the value, so that
URLs with fragments work (`url = http://host/page#top`). A `;` never starts an inline
comment.

```
tls = on           # the TLS switch -> "on"
url = http://x/#a  # fragment kept  -> "http://x/#a"
motd = hello ; world                -> "hello ; world"
```

**R-14** A bare value MUST NOT be empty: an entry with nothing but whitespace, or only an
inline comment, after its `=` is invalid.

### 4.3 Quoted values

**R-15** A value that starts with `"` is *quoted*. It ends at the next unescaped `"`.
Inside a quoted value, a backslash starts an escape sequence. The escape sequences are:

| sequence | meaning |
|---|---|
| `\"` | a double quote |
| `\\` | a backslash |
| `\n` | a line feed (U+000A) |
| `\t` | a horizontal tab (U+0009) |

**R-16** Any other character after a backslash is an error: the document is invalid, and
a reader MUST reject it (it MUST NOT keep the backslash or drop it silently).

**R-17** A quoted value that is not closed before the end of the line is an error. After
the closing quote, only whitespace or a comment (`#` or `;`) may follow on the line.

Quoted values keep all their whitespace: `"  padded  "` is the string `  padded  `.
`#` and `;` inside a quoted value are ordinary characters.

### 4.4 Value length

**R-18** Values have no length limit in this specification. Implementations MAY impose a
limit of at least 64 KiB per value and MUST reject longer values rather than truncate
them.

### 4.5 Key length

**R-19** A key longer than 64 characters is an error. Exactly 64 characters is allowed.

## 5. Repeated keys

### 5.1 Across sections

**R-20** The same key MAY appear in different sections; each section has its own keys.

### 5.2 Within a section

**R-21** Within one section, the same key (R-2) MAY occur more than once. The first
occurrence is used and later occurrences are ignored.

### 5.3 Reopened sections

**R-22** A section MAY be opened more than once (§6.3). All entries of all its openings
belong to the same section, and R-21 applies across openings in document order.

## 6. Sections

### 6.1 Section headers

**R-23** A section header is a line that starts with `[` and ends with `]`. The section
name is the text in between with surrounding whitespace removed; it MUST NOT be empty.
Section names are case-sensitive and are compared exactly: `[Server]` and `[server]` are
different sections, and so are `[pool-a]` and `[pool_a]`. A section name may contain any
characters except line terminators; `]` inside a name is allowed as long as the line
ends with `]`.

### 6.2 The unnamed section

**R-24** Entries before the first section header belong to the unnamed section, whose
name is the empty string.

### 6.3 Reopening

**R-25** A header naming a section that was already opened continues that section.

## 7. Errors

**R-26** A document that violates any MUST of this specification is invalid. A
reader reports the 1-based number of the first line (§2.2) at which the
document is found to be invalid, and a human-readable message. It MUST NOT return partial
results for an invalid document. Errors in this specification include: a line that is
none of blank, comment, section header or entry; an empty key; an invalid key character;
a key that R-11 refuses; an over-long key; an empty section name; an unknown escape; an
unterminated quoted value; text after a closing quote other than whitespace or a comment.

## 8. Programming interface

**R-27** Implementations SHOULD offer a function that returns the value stored for a
section name and a key. It MUST fold the key (R-10) and MUST compare section names
exactly (R-23).

**R-28** Implementations SHOULD keep entries in document order of their first
occurrence.

## 9. Security considerations

Configuration files often hold credentials. Parsers MUST NOT log values of entries when
reporting errors; the line number and a description of the problem are enough. Parsers
SHOULD bound the memory they use by the size of the input. Because a document may be
assembled by concatenating several files (Annex C, 1.2), applications SHOULD be aware of
which file a line came from when they report errors to people.

## 10. Interoperability notes

Older INI dialects differ from KVX in ways that have caused real incidents:

- Some dialects treat `;` as an inline comment. KVX does not (R-13); a value such as
  `motd = hello ; world` keeps the semicolon.
- Some dialects allow `:` instead of `=`. KVX does not; such a line is an error.
- Some dialects unescape sequences in bare values. KVX does not: backslashes in bare
  values are ordinary characters (`path = C:\temp` is the string `C:\temp`).
- Some dialects nest sections with dotted names. KVX does not: `[a.b]` is simply a section
  whose name contains a dot.
- Some dialects treat `max-conn` and `max_conn` as two keys. KVX does not (R-2).

## Annex A. Grammar (informative)

```
document    = *( line terminator ) [ line ]
terminator  = LF / CR LF
line        = *WSP [ content ] *WSP
content     = comment / header / entry
comment     = ( "#" / ";" ) *any
header      = "[" *WSP name *WSP "]"
entry       = key *WSP "=" *WSP value
key         = 1*64( ALPHA / DIGIT / "_" / "." / "-" )
value       = quoted [ *WSP [ comment ] ] / bare
quoted      = DQUOTE *( unescaped / escape ) DQUOTE
escape      = "\" ( DQUOTE / "\" / "n" / "t" )
bare        = 1*any           ; up to an inline comment, see R-13
```
'''

# ---------------------------------------------------------------- Annex B: examples
AREAS = {
    "net": ["tcp", "udp", "dns", "proxy", "tls", "http"],
    "log": ["file", "syslog", "journal", "rotate", "format"],
    "db": ["pool", "replica", "migrate", "backup", "query"],
    "cache": ["memory", "disk", "redis", "ttl", "evict"],
    "auth": ["oidc", "ldap", "token", "session", "mfa"],
    "ui": ["theme", "locale", "layout", "font", "a11y"],
    "job": ["queue", "retry", "cron", "worker", "lease"],
    "metrics": ["statsd", "prometheus", "trace", "sample", "export"],
    "storage": ["s3", "local", "quota", "gc", "snapshot"],
    "mail": ["smtp", "imap", "relay", "spool", "dkim"],
    "search": ["index", "shard", "rank", "synonym", "crawl"],
    "media": ["encode", "thumb", "stream", "codec", "probe"],
    "billing": ["invoice", "tax", "ledger", "refund", "plan"],
    "geo": ["tiles", "geocode", "route", "bounds", "raster"],
    "feature": ["flag", "rollout", "cohort", "audit", "expiry"],
    "edge": ["cdn", "waf", "purge", "origin", "shield"],
    "build": ["compiler", "linker", "artifact", "sandbox", "mirror"],
    "print": ["spooler", "driver", "tray", "duplex", "margin"],
    "sensor": ["poll", "calib", "filter", "alarm", "unit"],
    "backup": ["schedule", "retain", "verify", "encrypt", "target"],
    "chat": ["room", "presence", "history", "upload", "bridge"],
    "vpn": ["tunnel", "peer", "route", "keepalive", "mtu"],
    "dns": ["zone", "resolver", "dnssec", "forward", "negcache"],
    "cluster": ["member", "gossip", "quorum", "fence", "drain"],
    "ml": ["model", "batch", "feature", "serve", "drift"],
    "iot": ["device", "twin", "firmware", "gateway", "telemetry"],
    "pay": ["card", "wallet", "fraud", "settle", "payout"],
    "hr": ["roster", "leave", "payroll", "review", "onboard"],
    "cms": ["page", "asset", "draft", "publish", "menu"],
    "ci": ["runner", "cache", "matrix", "artifact", "secret"],
    "voice": ["sip", "codec", "ivr", "record", "trunk"],
    "erp": ["stock", "order", "supplier", "warehouse", "forecast"],
    "crm": ["contact", "lead", "campaign", "segment", "merge"],
    "sms": ["sender", "carrier", "optout", "template", "quota"],
    "video": ["room", "record", "layout", "bitrate", "relay"],
    "lab": ["sample", "assay", "instrument", "result", "qc"],
    "fleet": ["vehicle", "driver", "fuel", "service", "track"],
    "energy": ["meter", "tariff", "grid", "battery", "solar"],
    "ticket": ["intake", "triage", "sla", "escalate", "close"],
    "kiosk": ["screen", "idle", "printer", "payment", "lock"],
}
LEAVES = [("timeout_s", "integer", "seconds before the operation is abandoned", "30"),
          ("enabled", "boolean", "turns the feature on or off", "true"),
          ("max", "integer", "upper bound on concurrent items", "64"),
          ("path", "string", "file system location used by the component", "/var/lib/app"),
          ("url", "string", "endpoint the component talks to", "http://127.0.0.1:9000/"),
          ("level", "string", "verbosity: one of error, warn, info, debug", "info"),
          ("interval_s", "integer", "seconds between two runs", "60"),
          ("name", "string", "identifier shown in logs and dashboards", "main"),
          ("ratio", "decimal", "fraction between 0 and 1", "0.5"),
          ("min", "integer", "lower bound kept even when idle", "1"),
          ("retries", "integer", "attempts after the first failure", "3"),
          ("mode", "string", "one of strict, relaxed, off", "strict")]
STATUS = ["current", "current", "current", "deprecated", "provisional"]
OWNERS = ["core team", "operations WG", "interop WG", "security WG", "tooling WG", "registry editors"]

PLACE = ["a", "the", "each"]
WORDS = ["edge", "alpha", "north", "beta", "blue", "delta", "orion", "kilo", "tango", "lima"]


def example(n):
    """An informative example: a small valid document and the triples it yields (no repeated
    keys, no empty values, no escapes beyond the four of R-15, no held-back prefixes)."""
    area = rng.choice(list(AREAS))
    lines, triples = [], []
    lines.append(f"# example {n}: {area} settings for the {rng.choice(WORDS)} deployment")
    secs = rng.sample(AREAS[area], rng.randint(1, 3))
    if rng.random() < 0.4:
        v = rng.choice(WORDS)
        lines.append(f"name = \"{v} {n}\"")
        triples.append(("", "name", f"{v} {n}"))
    for sec in secs:
        lines.append("")
        lines.append(f"[{area}.{sec}]")
        for leaf, typ, meaning, default in rng.sample(LEAVES, rng.randint(2, 5)):
            val = default if rng.random() < 0.6 else {"integer": str(rng.randint(2, 900)),
                                                       "boolean": rng.choice(["false", "true"]),
                                                       "decimal": f"0.{rng.randint(1, 99)}",
                                                       "string": rng.choice(WORDS) + "-" + str(rng.randint(1, 99))}[typ]
            if rng.random() < 0.25:
                lines.append(f"{leaf} = {val}        # {meaning.split(':')[0]}")
            elif rng.random() < 0.15 and typ == "string":
                lines.append(f"{leaf} = \"{val}\"")
            else:
                lines.append(f"{leaf} = {val}")
            triples.append((f"{area}.{sec}", leaf, val))
    out = f"\n### B.{n} {area.capitalize()} settings, {len(secs)} section{'s' if len(secs) > 1 else ''}\n\n```\n" + "\n".join(lines) + "\n```\n\nyields "
    out += ", ".join(f'("{s}", "{k}", "{v}")' for s, k, v in triples) + ".\n"
    return out


ANNEX_B = ("\n## Annex B. Examples (informative)\n\nEach example is a complete document followed by the triples it "
           "yields, in document order. The examples use keys of the registry (Annex D).\n"
           + "".join(example(n) for n in range(1, 131)))

ANNEX_C = r'''
## Annex C. Changes between versions (informative)

- 1.1: `;` comment lines (R-7); CR LF terminators (R-4); the 64-character key limit
  (R-19).
- 1.2: keys are folded (R-2, R-10), so that `-` and `_` are interchangeable; key prefixes
  held back (R-11); reopened sections (R-22); the unknown-escape rule was tightened from
  SHOULD to MUST (R-16); documents may be concatenations of files (§9).
'''

# ---------------------------------------------------------------- Annex D: registry
HELD = r'''
### D.17 Namespaces held back from registration

No key in the tables of this annex begins with one of the prefixes below, and R-11 makes a
document that uses one invalid. The prefixes are compared with a key's folded form (R-2),
so the table gives folded spellings only.

| prefix | held back for |
|---|---|
| `kvx.` | settings about the document itself, defined by future versions of this specification |
| `sys_` | values that a host environment injects when a document is loaded; a file must not set them |
| `_` | keys private to one installation, never published in a shared registry |

Applications that need a namespace of their own register an area (D.1) instead.
'''

REG_INTRO = r'''
## Annex D. Registry of well-known keys

The keys below are registered for use by KVX-based applications so that tools can offer
completion and validation. The registry does not change the syntax: a registered key is
parsed like any other key. Types are advisory; the default is the value applications use
when a document has no entry for the key. This annex is informative, except where §0.3
says otherwise.

### D.1 How areas are registered

An area is the first component of a registered key. Areas are assigned by the registry
editors on request; a request names the area, an owner and at least one key. Areas are
never reassigned. Keys of an area have three components (`area.component.setting`); a
setting is one of the common settings of D.2, or a setting registered for one area only.

### D.2 Common settings

| setting | type | meaning | typical default |
|---|---|---|---|
''' + "\n".join(f"| `{l}` | {t} | {m} | `{d}` |" for l, t, m, d in LEAVES) + "\n"

reg_parts = []
areas = list(AREAS.items())
for n, (area, subs) in enumerate(areas):
    idx = n + 3 if n + 3 < 17 else n + 4
    if idx == 18:
        reg_parts.append(HELD)
    rows = []
    for sub in subs:
        for leaf, typ, meaning, default in rng.sample(LEAVES, 11):
            since = rng.choice(["1.0", "1.0", "1.1", "1.2"])
            rows.append(f"| `{area}.{sub}.{leaf}` | {typ} | {sub} {area}: {meaning} | `{default}` | {since} | {rng.choice(STATUS)} |")
    reg_parts.append(f"\n### D.{idx} `{area}` keys\n\nOwner: {rng.choice(OWNERS)}. Registered {rng.choice(['2016', '2017', '2018', '2019', '2020', '2021'])}.\n\n"
                     "| key | type | meaning | default | since | status |\n|---|---|---|---|---|---|\n" + "\n".join(rows) + "\n")
ANNEX_D = REG_INTRO + "".join(reg_parts)

# ---------------------------------------------------------------- Annex G: implementation notes
ANNEX_G = r'''
## Annex G. Implementation notes

This annex collects advice from implementers. It is informative, except for the
subsections that §0.3 lists.

### G.1 Reading the input in one piece

Most implementations read the whole document into memory before parsing it. A document
is rarely larger than a few kilobytes; reading it in one piece makes line numbering and
error reporting simple and lets a parser refuse a document without having produced any
triple, as R-26 requires.

### G.2 Streaming

A streaming parser that hands out triples as it reads must buffer them until the end of
the document, because a later line can make the whole document invalid (R-26). Streaming
therefore saves little memory and is not recommended.

### G.3 Choosing data structures

A linear list of entries is sufficient for the sizes KVX documents have in practice. An
implementation that keeps a hash table keyed by section and key must hash the key in the
form in which keys are compared.

### G.4 Bytes outside ASCII

A reader copies every byte outside ASCII (0x80 to 0xFF) that occurs in a value, a section
name or a comment unchanged; it does not decode, normalize or re-encode them. Such a byte
in a key is an invalid key character (R-9).

### G.5 Error messages

Messages should name the problem, not the rule number: "unknown escape sequence" is more
helpful to a person than "R-16". They must not quote values (section 9).

### G.6 Very long lines

Lines have no length limit apart from the limits on keys (§4.5) and values (§4.4). A
reader must not split a long line in two.

### G.7 Testing

The examples of Annex B are a starting point. Implementers have found the following kinds
of documents useful in tests: documents without a final line terminator, documents with
mixed LF and CR LF terminators, indented section headers, values containing `=`, and
section names containing `]`.

### G.8 Thread safety

A parsed document is immutable; readers may share it between threads without locking.

### G.9 Numbering of lines in diagnostics

The line a reader reports for an invalid document is the line that holds the offending
text, numbered as §2.2 numbers lines, also when the document mixes LF and CR LF
terminators. For a quoted value that is not closed, it is the line of the entry.

### G.10 Embedding

Applications that embed KVX documents in other files (for example in a comment block of a
script) should strip the embedding before parsing, so that line numbers in diagnostics
refer to the embedded document.

### G.11 Command-line tools

A tool that prints triples should print one per line, escape control characters and
return a non-zero exit status for an invalid document.
'''

# ---------------------------------------------------------------- Annex P: profiles
def profile_rules(letter, start, topics, rng):
    out = []
    for i, (title, body) in enumerate(topics, start):
        out.append(f"\n**{letter}-{i}** ({title}) {body}\n")
    return "".join(out)


V_TOPICS = [
    ("scope", "A document claims KVX-V when the application that loads it says so; the document itself carries no marker."),
    ("variable names", "The variable for an entry is the section name, two low lines and the key, in capitals, with every `.` replaced by a low line: `[db.pool]` `max` is `DB_POOL__MAX`."),
    ("unnamed section", "Entries of the unnamed section map to the key alone, in capitals, with `.` replaced by a low line."),
    ("precedence", "A variable that is set in the process environment takes precedence over the entry it maps to; an empty variable counts as set."),
    ("held-back variables", "Variables whose name begins with `KVX_` are never read by a KVX-V implementation."),
    ("collisions", "Two entries that map to the same variable name are a configuration error in KVX-V; the implementation reports both lines."),
    ("export", "An implementation that exports a document to the environment sets one variable per entry and sets none for sections without entries."),
    ("values", "Values are exported byte for byte; a value that contains a NUL cannot be exported and is a configuration error in KVX-V."),
    ("listing", "An implementation SHOULD offer a listing of the variables a document maps to, in document order."),
    ("shell quoting", "When a listing is meant for a POSIX shell, each value is quoted with single quotes, and a single quote inside a value is written as `'\\''`."),
    ("case of sections", "Section names that contain small letters still map to capitals; two sections that differ only in case therefore collide (V-6)."),
    ("dashes in sections", "A `-` in a section name maps to a low line."),
    ("digits", "A variable name that would begin with a digit is prefixed with a low line."),
    ("length", "Variable names longer than 255 bytes are a configuration error in KVX-V."),
    ("reload", "An implementation that reloads a document at run time re-reads the environment as well."),
    ("secrets", "An implementation MUST NOT print values of variables whose key's last component is `password`, `secret` or `token`."),
]
S_TOPICS = [
    ("scope", "A schema describes which sections and keys an application accepts, and the type of each value."),
    ("schema documents", "A schema is itself a KVX document; each of its sections describes one section pattern of the documents it validates."),
    ("types", "The types are `string`, `integer`, `decimal`, `boolean`, `duration` and `list`; a value of type `list` is split at commas, with whitespace around items removed."),
    ("integers", "An integer is an optional `-` followed by 1 to 19 digits; leading zeros are allowed."),
    ("booleans", "A boolean is one of `true`, `false`, `yes`, `no`, `on`, `off`, compared without regard to case."),
    ("section patterns", "A section pattern is a section name in which `*` matches any run of characters other than `.`; patterns are compared with section names exactly, character for character."),
    ("required keys", "A key that a schema marks `required` must occur in every section the pattern matches."),
    ("unknown keys", "A key that no pattern describes is a validation warning, not an error, unless the schema sets `closed = true` in the section."),
    ("durations", "A duration is a number followed by one of `ms`, `s`, `m`, `h`, `d`."),
    ("defaults", "A default in a schema is applied by the application, never written into the document."),
    ("ranges", "A schema may give `min` and `max` for integer, decimal and duration keys; both bounds are inclusive."),
    ("enumerations", "A schema may list the values a string key accepts; the comparison is exact."),
    ("reports", "A validator reports every problem it finds, not only the first, each with its line number."),
    ("identifiers", "A schema has an identifier of at most 64 characters, given by the key `schema.id` of its unnamed section."),
    ("versions", "A schema may require a minimum version of itself with `schema.requires`; validators that are older refuse it."),
    ("nesting", "Schemas do not nest; a schema that names another schema in `schema.extends` copies that schema's patterns before its own."),
]
I_TOPICS = [
    ("scope", "The inclusion profile lets a document name other documents that an implementation reads in its place; a reader of the core treats such lines as what they are in the core."),
    ("directive", "An inclusion is an entry of the unnamed section whose key is `include`; its value names a file relative to the including document."),
    ("position", "The included document's lines take the place of the directive, as if the files had been concatenated at that point."),
    ("sections", "An included document starts in the unnamed section; the including document continues, after the directive, in the section that was open before it."),
    ("depth", "Inclusions nest at most 8 levels deep; deeper nesting is a configuration error in KVX-I."),
    ("cycles", "A document that includes itself, directly or through others, is a configuration error in KVX-I."),
    ("missing files", "A missing file is a configuration error unless the directive's key is `include_optional`."),
    ("globbing", "A value that contains `*` names every matching file, read in byte order of their names."),
    ("line numbers", "Diagnostics name the file and the line in that file."),
    ("encoding", "Included documents are UTF-8, as R-3 says for every document."),
    ("permissions", "An implementation SHOULD refuse to include a file that is writable by other users than the owner of the including file."),
    ("tooling", "A tool that flattens inclusions writes the resulting single document with a comment before each included part naming its file."),
]
W_TOPICS = [
    ("scope", "The writer profile constrains programs that produce KVX documents, so that every reader, old or new, gives them the same meaning."),
    ("terminators", "A writer uses LF terminators and ends the last line with one."),
    ("keys", "A writer writes every key in its folded form."),
    ("values", "A writer quotes a value when it is empty, has whitespace at either end, contains ` #`, or starts with `\"`."),
    ("escapes", "A writer uses only the sequences of R-15 and writes every other control character as it is, inside quotes."),
    ("sections", "A writer writes the unnamed section first and every other section once, in the order of first occurrence."),
    ("comments", "A writer that rewrites a document keeps its comments next to the lines they preceded."),
    ("repeated keys", "A writer never writes the same key twice in a section."),
    ("blank lines", "A writer separates sections with one blank line."),
    ("indentation", "A writer does not indent."),
    ("alignment", "A writer MAY align the `=` of consecutive entries with spaces."),
    ("stability", "Writing a document that was read without changes produces the same bytes, apart from the normalizations above."),
]


def rationale(name, rng):
    paras = [
        f"The {name} profile grew out of tools that several implementers had written independently; the profile records "
        "the behaviour those tools agreed on, and settles the points where they differed.",
        "Where a rule below appears to repeat a rule of the core, it does so for the convenience of readers of the profile; "
        "the core's rule is the one that counts for the core.",
        "Implementations that claim the profile say so in their documentation, with the version of the profile they follow.",
        "The profile's rules bind only implementations that claim it (§0.1). A configuration error in the sense of the "
        "profile is reported by the profile's implementation, after the core has read the document.",
    ]
    return "\n\n".join(rng.sample(paras, 4))


def profile(num, code, name, letter, topics):
    out = f"\n### P.{num} {code}: the {name} profile\n\n{rationale(name, rng)}\n\n#### P.{num}.1 Rules (normative for {code})\n"
    out += profile_rules(letter, 1, topics, rng)
    out += f"\n#### P.{num}.2 Notes (informative)\n\n"
    notes = []
    for i, (title, _) in enumerate(topics, 1):
        if rng.random() < 0.6:
            notes.append(f"- {letter}-{i} ({title}): " + rng.choice([
                "adopted unchanged from the most common tool.",
                "chosen over the alternative after an interoperability test across six implementations.",
                "a compromise between two widely used tools; both needed small changes.",
                "added after a field report in which two tools disagreed on the same document.",
                "kept deliberately strict; it may be relaxed in a later version of the profile.",
            ]))
    return out + "\n".join(notes) + "\n"


ANNEX_P = ("\n## Annex P. Profiles\n\nThe profiles extend KVX for particular uses. Each is a document of its own, with the code "
           "§0.1 gives it, and each numbers its rules with its own capital. Each profile's rules are normative for the "
           "implementations that claim it, and for nothing else.\n"
           + profile(1, "KVX-V", "variable-mapping", "V", V_TOPICS)
           + profile(2, "KVX-S", "typed-schema", "S", S_TOPICS)
           + profile(3, "KVX-I", "inclusion", "I", I_TOPICS)
           + profile(4, "KVX-W", "writer", "W", W_TOPICS))

# ---------------------------------------------------------------- Annex Q: corrigenda register
# The corrigenda that bind a reader of the core are those whose "Applies to" names KVX-C
# (§0.2): C-2, C-7, C-12, C-18, C-27, C-31 and C-23, which §0.4 withdraws. The others
# correct the profiles; C-4 (section names folded), C-9 (`env.` held back), C-14 (a writer
# keeps the first of repeated keys), C-25 (identifiers of 128) and C-29 (writers never use
# `\r`) are the ones a reader who ignores "Applies to" would wrongly take for the core.
FIXED = {
    2: ("KVX-C", "editorial", "§3.2",
        "The example in §3.2 originally showed a `;` comment after an entry on the same line; that is not a comment "
        "line. See R-13 for inline comments.", None),
    4: ("KVX-S", "technical", "S-6",
        "In S-6, for \"compared with section names exactly, character for character\" read \"compared with section "
        "names after both are folded as R-2 folds keys\".",
        "Schema authors wrote `[Pool-*]` patterns for sections spelled `[pool_a]`; validators disagreed."),
    7: ("KVX-C", "technical", "R-21",
        "In the second sentence of R-21, for \"first\" read \"last\" and for \"later\" read \"earlier\". R-22 and R-28 "
        "are unchanged: an entry stays at the position where its key first occurred.",
        "Documents are commonly produced by concatenating a site-wide file and a host-specific one; the host-specific "
        "line must prevail, and under the published text it could not."),
    9: ("KVX-V", "technical", "V-5",
        "V-5 is replaced by: \"In a document that an implementation of this profile loads, a key whose folded form "
        "begins with `env.` is refused, as are variables whose name begins with `KVX_`.\"",
        "Keys in `env.` were exported under names that shadowed the implementation's own variables."),
    12: ("KVX-C", "technical", "R-14",
         "R-14 is withdrawn. Its case gives the key the empty string, also when only whitespace or an inline comment "
         "(R-13) follows the `=`. The grammar of Annex A is corrected accordingly (`bare = *any`).",
         "Generated documents leave settings without a value, and refusing the whole document for one of them helped "
         "nobody."),
    14: ("KVX-W", "technical", "W-8",
         "W-8 gains a second sentence: \"A writer that is given several values for the same key in a section writes "
         "the first of them.\"",
         "Two writers disagreed; the one that kept the first value was the older and more widely deployed."),
    18: ("KVX-C", "technical", "D.17",
         "The holding-back that D.17 makes for keys private to one installation is lifted: installations depend on "
         "such keys, and R-11 made their files invalid. The other rows of D.17 stand.", None),
    20: ("KVX-I", "technical", "I-5",
         "In I-5, for \"8 levels\" read \"16 levels\".", "Generated trees of documents reached nine levels."),
    23: ("KVX-C", "technical", "R-19",
         "In R-19, for \"64\" read \"128\". The grammar of Annex A is corrected accordingly (`1*128`).",
         "Keys built from long component names reached the limit."),
    25: ("KVX-S", "technical", "S-14",
         "In S-14, for \"at most 64 characters\" read \"at most 128 characters\".",
         "Identifiers that embed a reverse domain name reached the limit."),
    27: ("KVX-C", "editorial", "§10", "The list of dialect differences in section 10 is not exhaustive.", None),
    29: ("KVX-W", "technical", "W-5",
         "W-5 gains a second sentence: \"A writer never writes the sequence for a carriage return; it writes the "
         "character itself, inside quotes.\"",
         "Readers of KVX 1.1 refuse every sequence they do not know (R-16), and documents from new writers must stay "
         "readable by them."),
    31: ("KVX-C", "technical", "R-15",
         "The table of R-15 gains a row: `\\r`, a carriage return (U+000D). R-16 applies to every sequence that is not "
         "in the table as corrected. The grammar of Annex A is corrected accordingly.",
         "Values copied from systems that end lines with CR could not be written in one line."),
}
TARGETS = [("KVX-V", "V", len(V_TOPICS)), ("KVX-S", "S", len(S_TOPICS)), ("KVX-I", "I", len(I_TOPICS)),
           ("KVX-W", "W", len(W_TOPICS))]
EDITORIAL = [
    "In {r}, a cross-reference pointed at the wrong subsection; it now points at the subsection the rule describes.",
    "In {r}, \"which\" is replaced by \"that\" in the first sentence; the meaning is unchanged.",
    "The title of {r} was missing from the table of contents.",
    "In the notes to {r}, a tool was named that has since been renamed; the note now describes the tool instead.",
    "In {r}, an example used a value with trailing whitespace that did not survive typesetting; the example now quotes it.",
    "In {r}, the word \"MUST\" was set in small capitals; it is set in capitals like every other key word.",
]
TECHNICAL = [
    ("In {r}, the exception for documents without entries is withdrawn; such documents are treated like any other.",
     "The exception was never implemented by any known tool."),
    ("In {r}, \"SHOULD\" is replaced by \"MUST\".", "All known implementations already behaved so."),
    ("In {r}, the second sentence is withdrawn.", "It repeated a rule of the core in words that contradicted it."),
    ("{r} gains a sentence: \"An implementation reports the problem once, at the first line concerned.\"",
     "Reports listed the same problem many times."),
]


def corrigendum(n):
    if n in FIXED:
        code, kind, target, text, why = FIXED[n]
    else:
        code, letter, count = rng.choice(TARGETS)
        target = f"{letter}-{rng.randint(1, count)}"
        if rng.random() < 0.6:
            kind, text, why = "editorial", rng.choice(EDITORIAL).format(r=target), None
        else:
            t, why = rng.choice(TECHNICAL)
            kind, text = "technical", t.format(r=target)
    year = 2021 + (n - 1) * 3 // 44
    out = (f"\n### C-{n}\n\n- Applies to: {code}\n- Kind: {kind}\n- Corrects: {target}\n- Approved: {year}\n\n{text}\n")
    if why:
        out += f"\nRationale: {why}\n"
    return out


ANNEX_Q = ("\n## Annex Q. Corrigenda register\n\nThe register lists every corrigendum approved for the documents of this "
           "volume (§0.1), in the order of approval. Each applies to the one document its *Applies to* line names; §0.2 "
           "says which of them bind a reader of the core. Decisions taken after the register was typeset are recorded "
           "in §0.4.\n" + "".join(corrigendum(n) for n in range(1, 45)))

text = HEAD + ANNEX_B + ANNEX_C + ANNEX_D + ANNEX_G + ANNEX_P + ANNEX_Q
with open(os.path.join(HERE, "workspace/docs/kvx-spec.md"), "w") as f:
    f.write(text)
print(len(text), "bytes,", text.count("\n"), "lines")
