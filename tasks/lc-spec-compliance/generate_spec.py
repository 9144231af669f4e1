#!/usr/bin/env python3
"""Writes workspace/docs/kvx-spec.md: hand-written normative sections plus a generated
registry appendix (realistic bulk), with the errata last. Deterministic."""
import os
import random

rng = random.Random(12)
HERE = os.path.dirname(os.path.abspath(__file__))

HEAD = r'''# KVX 1.2 — a key/value configuration format

Status: Standard. This document defines version 1.2 of KVX. The key words MUST, MUST NOT,
SHOULD and MAY are to be interpreted as in RFC 2119. Normative text is in sections 2 to 8
and in the errata (Appendix E), which are part of this version and take precedence over
the text they correct. Appendices A to D are informative unless stated otherwise.

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
- *whitespace*: space (U+0020) and horizontal tab (U+0009).
- *entry*: a line of the form `key = value`.
- *conforming parser*: a parser that accepts every valid document, produces exactly the
  triples this specification defines for it, and rejects every invalid document.

### 1.2 Relationship to earlier versions

KVX 1.0 (2016) and 1.1 (2019) documents are KVX 1.2 documents with the same meaning,
except where Appendix C says otherwise. A parser MUST NOT try to detect the version of a
document; there is no version marker.

## 2. Encoding and lines

### 2.1 Character encoding

A document is UTF-8. A parser MAY reject invalid UTF-8 but is not required to; KVX
syntax only uses ASCII characters, so a parser that treats the input as bytes and passes
other bytes through unchanged is conforming.

### 2.2 Line terminators

Lines end with LF (U+000A) or CR LF (U+000D U+000A). The terminator is not part of the
line. The last line of a document MAY lack a terminator. A CR that is not followed by LF
is an ordinary character. Line numbers start at 1 and count terminators, so a document's
n-th line is line n regardless of which terminators it uses.

### 2.3 Leading and trailing whitespace

Whitespace at the start and at the end of every line is ignored; it never changes the
meaning of a document. Indentation is therefore allowed everywhere and carries no
meaning (there is no nesting).

## 3. Blank lines and comments

### 3.1 Blank lines

A line that is empty or contains only whitespace is blank and is ignored.

### 3.2 Comment lines

A line whose first non-whitespace character is `#` or `;` is a comment and is ignored in
its entirety. Comments cannot be continued onto the next line.

```
# a comment
   ; an indented comment
```

## 4. Entries

An entry is a key, an equals sign and a value: `key = value`. Whitespace around the
equals sign is ignored. The first `=` on the line separates key and value; later `=`
characters are part of the value.

### 4.1 Keys

A key is a non-empty sequence of the characters `A`–`Z`, `a`–`z`, `0`–`9`, `_`, `.` and
`-`. Any other character in a key makes the document invalid.

Keys are case-insensitive: `Port`, `PORT` and `port` are the same key. A conforming
parser MUST store and report every key in lower case (ASCII lower-casing), and lookups
by key MUST be case-insensitive. This applies to all the rules below that compare keys,
including §5.

A key MUST NOT be longer than 64 characters (§4.5).

### 4.2 Bare values

A value that does not start with a double quote is *bare*. A bare value extends to the
end of the line, with surrounding whitespace removed, except that an inline comment ends
it: a `#` that is preceded by whitespace starts a comment that runs to the end of the
line. A `#` that is not preceded by whitespace is part of the value, so that URLs with
fragments work (`url = http://host/page#top`). A `;` never starts an inline comment.

```
port = 8080        # the TLS port   -> "8080"
url = http://x/#a  # fragment kept  -> "http://x/#a"
motd = hello ; world                -> "hello ; world"
```

### 4.3 Quoted values

A value that starts with `"` is *quoted*. It ends at the next unescaped `"`. Inside a
quoted value, a backslash starts an escape sequence. The escape sequences are:

| sequence | meaning |
|---|---|
| `\"` | a double quote |
| `\\` | a backslash |
| `\n` | a line feed (U+000A) |
| `\t` | a horizontal tab (U+0009) |

Any other character after a backslash is an error: the document is invalid, and a
conforming parser MUST reject it (it MUST NOT keep the backslash or drop it silently).
A quoted value that is not closed before the end of the line is an error. After the
closing quote, only whitespace or a comment (`#` or `;`) may follow on the line.

Quoted values keep all their whitespace: `"  padded  "` is the string `  padded  `.
`#` and `;` inside a quoted value are ordinary characters.

### 4.4 Value length

Values have no length limit in this specification. Implementations MAY impose a limit
of at least 64 KiB per value and MUST reject longer values rather than truncate them.

### 4.5 Key length

A key longer than 64 characters is an error. Exactly 64 characters is allowed.

## 5. Repeated keys

### 5.1 Across sections

The same key MAY appear in different sections; each section has its own keys.

### 5.2 Within a section

Within one section, a key MAY occur more than once (in any letter case, see §4.1). The
first occurrence is used and later occurrences are ignored.

### 5.3 Reopened sections

A section MAY be opened more than once (§6.3). All entries of all its openings belong to
the same section, and §5.2 applies across openings in document order.

## 6. Sections

### 6.1 Section headers

A section header is a line that starts with `[` and ends with `]`. The section name is the
text in between with surrounding whitespace removed; it MUST NOT be empty. Section names
are case-sensitive: `[Server]` and `[server]` are different sections. A section name may
contain any characters except line terminators; `]` inside a name is allowed as long as
the line ends with `]`.

### 6.2 The unnamed section

Entries before the first section header belong to the unnamed section, whose name is the
empty string.

### 6.3 Reopening

A header naming a section that was already opened continues that section.

## 7. Errors

A document that violates any MUST of this specification is invalid. A conforming parser
reports the 1-based number of the first line (§2.2) at which the document is found to be
invalid, and a human-readable message. It MUST NOT return partial results for an invalid
document. Errors in this specification include: a line that is none of blank, comment,
section header or entry; an empty key; an invalid key character; an over-long key; an
empty section name; an unknown escape; an unterminated quoted value; text after a
closing quote other than whitespace or a comment.

## 8. Application programming interface (informative)

Libraries SHOULD offer a lookup function taking a section name and a key. Because keys
are case-insensitive (§4.1), the lookup MUST find a key whatever the letter case of the
argument. Section names are compared exactly (§6.1). Libraries SHOULD keep entries in
document order of their first occurrence.

## 9. Security considerations

Configuration files often hold credentials. Parsers MUST NOT log values of entries when
reporting errors; the line number and a description of the problem are enough. Parsers
SHOULD bound the memory they use by the size of the input. Because a document may be
assembled by concatenating several files (see Appendix C, 1.2), applications SHOULD be
aware of which file a line came from when they report errors to users.

## 10. Interoperability notes

Older INI dialects differ from KVX in ways that have caused real incidents:

- Some dialects treat `;` as an inline comment. KVX does not (§4.2); a value such as
  `motd = hello ; world` keeps the semicolon.
- Some dialects allow `:` instead of `=`. KVX does not; such a line is an error.
- Some dialects unescape sequences in bare values. KVX does not: backslashes in bare
  values are ordinary characters (`path = C:\temp` is the string `C:\temp`).
- Some dialects nest sections with dotted names. KVX does not: `[a.b]` is simply a section
  whose name contains a dot.
- Some dialects treat keys as case-sensitive. KVX does not (§4.1).

## Appendix A. Grammar (informative)

```
document    = *( line terminator ) [ line ]
terminator  = LF / CR LF
line        = *WSP [ content ] *WSP
content     = comment / header / entry
comment     = ( "#" / ";" ) *any
header      = "[" *WSP name *WSP "]"
entry       = key *WSP "=" *WSP [ value ]
key         = 1*64( ALPHA / DIGIT / "_" / "." / "-" )
value       = quoted [ *WSP [ comment ] ] / bare
quoted      = DQUOTE *( unescaped / escape ) DQUOTE
escape      = "\" ( DQUOTE / "\" / "n" / "t" )
bare        = *any            ; up to an inline comment, see 4.2
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

- 1.1: `;` comment lines (§3.2); CR LF terminators (§2.2); the 64-character key limit
  (§4.5).
- 1.2: keys became case-insensitive (§4.1); reopened sections (§6.3); the unknown-escape
  rule was tightened from SHOULD to MUST (§4.3); documents may be concatenations of
  files, as configuration layering tools produce (§9).

## Appendix D. Registry of well-known keys (informative)

The keys below are registered for use by KVX-based applications so that tools can offer
completion and validation. The registry does not change the syntax: a registered key is
parsed like any other key. Types are advisory.

| key | type | meaning | since |
|---|---|---|---|
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

rows = []
for area, subs in AREAS.items():
    for sub in subs:
        for leaf, typ, meaning in rng.sample(LEAVES, 9):
            since = rng.choice(["1.0", "1.0", "1.1", "1.2"])
            rows.append(f"| `{area}.{sub}.{leaf}` | {typ} | {sub} {area}: {meaning} | {since} |")

TAIL = r'''

## Appendix E. Errata for KVX 1.2 (normative)

These errata were approved after publication. They are part of KVX 1.2, and where they
contradict the text above, the errata win.

**E-1 (editorial, §3.2).** The example in §3.2 originally showed a `;` comment after an
entry on the same line; that is not a comment line. See §4.2 for inline comments.

**E-2 (technical, §5.2 — replaces its last sentence).** Within one section, when a key
occurs more than once, the **last** occurrence is used; earlier occurrences are ignored.
Rationale: configuration layering tools build documents by appending files (Appendix C),
so a later file must be able to override an earlier one. This also applies across
reopened sections (§5.3) and regardless of the letter case of the key (§4.1). Libraries
keep the entry at the position of its first occurrence (§8) with the value of the last.

**E-3 (technical, §4.2).** A bare value may be empty: `key =` and `key =   # comment`
give the key the empty string. The published text could be read as making an empty value
an error; it is not one.

**E-4 (editorial, §10).** The list of dialect differences is not exhaustive.
'''

with open(os.path.join(HERE, "workspace/docs/kvx-spec.md"), "w") as f:
    f.write(HEAD + "\n".join(rows) + TAIL)
print(len(HEAD + "\n".join(rows) + TAIL), "bytes,", len(rows), "registry rows")
