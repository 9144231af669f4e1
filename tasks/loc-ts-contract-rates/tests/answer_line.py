"""Prints the answer the agent named: the first non-empty line of /workspace/ANSWER.txt,
stripped, without a leading "./" (the forms the instruction allows). The harness compares
this, on the host, with expected/ANSWER (which never enters a container). It runs as the
verifier user and reads the file through the broker (a regular file, never a link), before
any code of the workspace runs, so it reads the answer as the agent left it.

Two functions fit "the one whose own code is wrong": `rateCardKey` builds a cache key that
leaves out the price book, and `RateCardProvider.cardFor` asks the cache with that key
before the book is chosen (a key that cannot identify the card). A reviewer can defend
either, so both are right: each is printed as the one name expected/ANSWER holds. The
method that chooses the book (`PriceBookCatalog.rateCard`) chooses it correctly and is not
among them."""
import sys

import nabverify

# Each right answer that is not expected/ANSWER's own form, and the name printed for it.
SAME_DEFECT = {
    "src/rating/provider.ts::RateCardProvider.cardFor": "src/rating/cardKey.ts::rateCardKey",
}

text = nabverify.read_text("/workspace/ANSWER.txt")
if text is None:
    sys.exit("ANSWER.txt is missing or not a regular file")
lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
if not lines:
    sys.exit("ANSWER.txt is empty")
answer = lines[0][2:] if lines[0].startswith("./") else lines[0]
sys.stdout.write(SAME_DEFECT.get(answer, answer) + "\n")
