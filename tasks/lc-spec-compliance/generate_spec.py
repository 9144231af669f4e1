#!/usr/bin/env python3
"""Writes workspace/docs/kvx-spec.md deterministically: hand-written normative sections
with numbered rules (R-1 ...), a generated registry appendix (realistic bulk) that holds one
normative subsection (D.6, reserved key prefixes) among its tables, and errata that refer
to rules by number or by description only. The facts a conforming parser needs chain:
R-10/R-11 fold keys by the definition in section 1.1 (R-2: lower case and '-' -> '_');
R-11 sends the reader to D.6; E-5 withdraws the D.6 prefix it describes ("for local use")
without naming it; E-2 and E-3 name only the rules they change. Run: python3 generate_spec.py"""
import os
import random

rng = random.Random(12)
HERE = os.path.dirname(os.path.abspath(__file__))

HEAD = r'''# KVX 1.2 — a key/value configuration format

Status: Standard. This document defines version 1.2 of KVX. The key words MUST, MUST NOT,
SHOULD and MAY are to be interpreted as in RFC 2119. Rules are numbered (**R-1**, **R-2**,
...) so that other documents and the errata can refer to them. Normative text is in
sections 1 to 8, in any part of an appendix that says it is normative, and in the errata
(Appendix E), which are part of this version and take precedence over the text they
correct. Everything else is informative.

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
- **R-2** *folding* a key: every ASCII letter `A`–`Z` is replaced by its lower-case letter,
  and every hyphen-minus `-` by a low line `_`; all other characters are kept. The result
  is the key's *folded form*. Two keys are *the same key* when their folded forms are
  equal: `Max-Conn`, `max_conn` and `MAX_CONN` are one key. People write either spelling,
  and tools that map keys to environment variables cannot use `-`.
- *conforming parser*: a parser that accepts every valid document, produces exactly the
  triples this specification defines for it, and rejects every invalid document.

### 1.2 Relationship to earlier versions

KVX 1.0 (2016) and 1.1 (2019) documents are KVX 1.2 documents with the same meaning,
except where Appendix C says otherwise. A parser MUST NOT try to detect the version of a
document; there is no version marker.

## 2. Encoding and lines

### 2.1 Character encoding

**R-3** A document is UTF-8. A parser MAY reject invalid UTF-8 but is not required to;
KVX syntax only uses ASCII characters, so a parser that treats the input as bytes and
passes other bytes through unchanged is conforming.

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

**R-10** A conforming parser MUST store and report every key in its folded form (R-2),
and a lookup by key MUST fold the key it is given, so that any spelling of a key finds
it. Every rule of this specification that compares keys compares folded forms; section
names are never folded (§6.1).

**R-11** Some key prefixes are reserved (Appendix D.6). A key whose folded form begins
with a reserved prefix makes the document invalid. The check applies to the folded form,
so the spelling of the key does not matter.

**R-12** A key MUST NOT be longer than 64 characters (§4.5).

### 4.2 Bare values

**R-13** A value that does not start with a double quote is *bare*. A bare value extends
to the end of the line, with surrounding whitespace removed, except that an inline
comment ends it: a `#` that is preceded by whitespace starts a comment that runs to the
end of the line. A `#` that is not preceded by whitespace is part of the value, so that
URLs with fragments work (`url = http://host/page#top`). A `;` never starts an inline
comment.

```
port = 8080        # the TLS port   -> "8080"
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
a conforming parser MUST reject it (it MUST NOT keep the backslash or drop it silently).

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
conforming parser reports the 1-based number of the first line (§2.2) at which the
document is found to be invalid, and a human-readable message. It MUST NOT return partial
results for an invalid document. Errors in this specification include: a line that is
none of blank, comment, section header or entry; an empty key; an invalid key character;
a reserved key; an over-long key; an empty section name; an unknown escape; an
unterminated quoted value; text after a closing quote other than whitespace or a comment.

## 8. Application programming interface

**R-27** Libraries SHOULD offer a lookup function taking a section name and a key. The
lookup MUST fold the key (R-10) and MUST compare section names exactly (R-23).

**R-28** Libraries SHOULD keep entries in document order of their first occurrence.

## 9. Security considerations

Configuration files often hold credentials. Parsers MUST NOT log values of entries when
reporting errors; the line number and a description of the problem are enough. Parsers
SHOULD bound the memory they use by the size of the input. Because a document may be
assembled by concatenating several files (see Appendix C, 1.2), applications SHOULD be
aware of which file a line came from when they report errors to users.

## 10. Interoperability notes

Older INI dialects differ from KVX in ways that have caused real incidents:

- Some dialects treat `;` as an inline comment. KVX does not (R-13); a value such as
  `motd = hello ; world` keeps the semicolon.
- Some dialects allow `:` instead of `=`. KVX does not; such a line is an error.
- Some dialects unescape sequences in bare values. KVX does not: backslashes in bare
  values are ordinary characters (`path = C:\temp` is the string `C:\temp`).
- Some dialects nest sections with dotted names. KVX does not: `[a.b]` is simply a section
  whose name contains a dot.
- Some dialects treat keys as case-sensitive, or `max-conn` and `max_conn` as two keys.
  KVX does not (R-2).

## Appendix A. Grammar (informative)

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

## Appendix B. Examples (informative)

```
# service defaults
name = "edge proxy"

[listen]
host = 0.0.0.0
port = 8443          # TLS
banner = "welcome\tto the edge"

[upstream]
url = http://10.0.0.7:8080/api#v2
```

yields the triples ("", "name", "edge proxy"), ("listen", "host", "0.0.0.0"),
("listen", "port", "8443"), ("listen", "banner", "welcome<TAB>to the edge") and
("upstream", "url", "http://10.0.0.7:8080/api#v2").

## Appendix C. Changes between versions (informative)

- 1.1: `;` comment lines (R-7); CR LF terminators (R-4); the 64-character key limit
  (R-19).
- 1.2: keys are folded (R-2, R-10), which made them case-insensitive and `-` and `_`
  interchangeable; reserved key prefixes (R-11); reopened sections (R-22); the
  unknown-escape rule was tightened from SHOULD to MUST (R-16); documents may be
  concatenations of files, as configuration layering tools produce (§9).

## Appendix D. Registry of well-known keys

The keys below are registered for use by KVX-based applications so that tools can offer
completion and validation. The registry does not change the syntax: a registered key is
parsed like any other key. Types are advisory. This appendix is informative, except for
any subsection whose title says otherwise.
'''

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
}
LEAVES = [("timeout_s", "integer", "seconds before the operation is abandoned"),
          ("enabled", "boolean", "turns the feature on or off"),
          ("max", "integer", "upper bound on concurrent items"),
          ("path", "string", "file system location used by the component"),
          ("url", "string", "endpoint the component talks to"),
          ("level", "string", "verbosity: one of error, warn, info, debug"),
          ("interval_s", "integer", "seconds between two runs"),
          ("name", "string", "identifier shown in logs and dashboards"),
          ("ratio", "decimal", "fraction between 0 and 1")]

# D.6, normative, between the area tables: the reader of R-11 must find it.
RESERVED = r'''
### D.6 Reserved key prefixes (normative)

The prefixes below are reserved (R-11). They are compared with a key's folded form
(R-2), so the table lists folded spellings only.

| prefix | reserved for |
|---|---|
| `kvx.` | settings about the document itself, defined by future versions of this specification |
| `sys_` | values that a host environment injects at load time; a file must not set them |
| `_` | local use: private keys that a site must not publish in a shared registry |

A registered key never begins with a reserved prefix.
'''

parts = []
for n, (area, subs) in enumerate(AREAS.items(), 1):
    idx = n if n < 6 else n + 1
    if n == 6:
        parts.append(RESERVED)
    rows = []
    for sub in subs:
        for leaf, typ, meaning in rng.sample(LEAVES, 9):
            since = rng.choice(["1.0", "1.0", "1.1", "1.2"])
            rows.append(f"| `{area}.{sub}.{leaf}` | {typ} | {sub} {area}: {meaning} | {since} |")
    parts.append(f"\n### D.{idx} `{area}` keys\n\n| key | type | meaning | since |\n|---|---|---|---|\n"
                 + "\n".join(rows) + "\n")

TAIL = r'''
## Appendix E. Errata for KVX 1.2 (normative)

These errata were approved after publication. They are part of KVX 1.2, and where they
contradict the text above, the errata win.

**E-1 (editorial, §3.2).** The example in §3.2 originally showed a `;` comment after an
entry on the same line; that is not a comment line. See R-13 for inline comments.

**E-2 (technical, R-21).** In the second sentence of R-21, for "first" read "last" and for
"later" read "earlier". Rationale: configuration layering tools build documents by
appending files (Appendix C), so a later file must be able to override an earlier one.
R-22 and R-28 are unchanged: an entry stays at the position where its key first occurred.

**E-3 (technical, R-14).** R-14 is withdrawn. Its case gives the key the empty string, also
when only whitespace or an inline comment (R-13) follows the `=`. The grammar of Appendix
A is corrected accordingly (`bare = *any`).

**E-4 (editorial, §10).** The list of dialect differences is not exhaustive.

**E-5 (technical, Appendix D.6).** The prefix that D.6 reserves for local use is not
reserved: sites depend on such keys, and R-11 made their files invalid. The other
reservations stand.
'''

text = HEAD + "".join(parts) + TAIL
with open(os.path.join(HERE, "workspace/docs/kvx-spec.md"), "w") as f:
    f.write(text)
print(len(text), "bytes,", text.count("\n"), "lines")
