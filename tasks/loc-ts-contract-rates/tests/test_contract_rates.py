"""Hidden checks: every subscription is rated from the price book README.md names (its own,
else the contract in force on the period's first day, the account's own or its nearest
ancestor's, else the plan's default), along that book's `extends` chain; the month-end run
gives each account the invoice it gets alone, whatever else the data holds and in whatever
order the accounts are billed; and the run looks each distinct rate card (book, plan, metric,
currency) up once. The broker compiles the workspace with tsc into a scratch folder and runs
it with node, as the sandbox user with a clean environment; the data the tests make up is
written through the broker, and these tests only read what the program prints."""
import copy
import itertools
import json
from pathlib import PurePosixPath

import nabverify as nv
import pytest

WS = "/workspace"
ENV = {"PATH": "/usr/bin:/bin", "HOME": "/tmp", "LC_ALL": "C.UTF-8"}
MARCH = ("2026-03", "2026-03-01")
DIST = "/tmp/nab-ledger-dist"
_DIRS = itertools.count(1)


@pytest.fixture(scope="session")
def dist():
    r = nv.run(["tsc", "-p", f"{WS}/tsconfig.json", "--outDir", DIST], env=ENV, cwd=WS, timeout=120)
    assert r.ok, f"tsc failed:\n{r.stdout[-3000:]}{r.stderr[-2000:]}"
    entries = nv.listdir(f"{DIST}/src/cli") or []
    assert ("main.js", "file") in entries, "tsc wrote no src/cli/main.js"
    return f"{DIST}/src/cli/main.js"


@pytest.fixture
def scratch():
    """A fresh folder for the data a test makes up, in the sandbox user's /tmp (written there
    through the broker, so the code under test can read it)."""
    return PurePosixPath(f"/tmp/nab-inputs/{next(_DIRS)}")


def node(*args):
    r = nv.run(["node", *args], env=ENV, cwd="/tmp", timeout=30)
    assert r.ok, f"node {' '.join(args[1:3])}: {r.describe()}"
    return r.stdout


def ledger(main, data, *args):
    return json.loads(node(main, *args, "--data", str(data), "--json"))


def put(path, text):
    nv.write(str(path), text)


# ---------------------------------------------------------------- data the tests write

def write_data(root, plans, books, accounts, usage, period="2026-03", defaults=None):
    put(root / "metrics.json", json.dumps({"metrics": [
        {"id": "api_calls", "unit": "call", "aliases": ["requests"]},
        {"id": "storage_gb", "unit": "GB-month", "aliases": ["storage"]}]}))
    put(root / "plans.json", json.dumps({"plans": plans}))
    put(root / "pricebooks.json", json.dumps({"books": books}))
    put(root / "accounts.json", json.dumps({
        "defaults": defaults or {"currency": "USD", "taxRegion": "US", "anchorDay": 1}, "accounts": accounts}))
    put(root / "tax.json", json.dumps({"regions": {"US": 0, "US-NY": 888, "DE": 1900, "NL": 2100, "GB": 2000}}))
    put(root / "coupons.json", json.dumps({"coupons": [{"code": "TENOFF", "percentOff": 1000, "appliesTo": "all"}]}))
    lines = []
    for sub, (api, storage) in usage.items():
        half = api // 2
        lines.append({"id": f"{sub}-1", "subscription": sub, "metric": "api_calls", "quantity": half, "day": f"{period}-03"})
        lines.append({"id": f"{sub}-1", "subscription": sub, "metric": "api_calls", "quantity": half, "day": f"{period}-03"})
        lines.append({"id": f"{sub}-2", "subscription": sub, "metric": "requests", "quantity": api - half, "day": f"{period}-17"})
        lines.append({"id": f"{sub}-3", "subscription": sub, "metric": "storage", "quantity": storage, "day": f"{period}-28"})
    put(root / "usage" / f"{period}.jsonl", "".join(json.dumps(x) + "\n" for x in lines))
    return root


PLANS = [
    {"id": "basic", "name": "Basic", "baseFee": {"USD": 1500, "EUR": 1400}, "included": {"api_calls": 50000, "storage_gb": 5},
     "defaultBook": "standard"},
    {"id": "team", "name": "Team", "baseFee": {"USD": 9900, "EUR": 9200}, "included": {"api_calls": 400000, "storage_gb": 50},
     "defaultBook": "standard"},
    {"id": "pro", "name": "Pro", "baseFee": {"USD": 49900, "EUR": 46900}, "included": {"api_calls": 1500000, "storage_gb": 300},
     "defaultBook": "pro-list"},
]


def rate(metric, currency, tiers, per=1, plans=None):
    e = {"metric": metric, "currency": currency, "per": per, "tiers": [{"upTo": u, "unitPrice": p} for u, p in tiers]}
    if plans:
        e["plans"] = plans
    return e


BOOKS = [
    {"id": "standard", "rates": [
        rate("api_calls", "USD", [(500000, 50), (None, 30)], per=1000),
        rate("api_calls", "EUR", [(None, 45)], per=1000),
        rate("storage_gb", "USD", [(None, 15)]),
        rate("storage_gb", "EUR", [(None, 14)])]},
    {"id": "pro-list", "extends": "standard", "rates": [rate("api_calls", "USD", [(None, 28)], per=1000, plans=["pro"])]},
    {"id": "reseller", "extends": "standard", "rates": [
        rate("api_calls", "USD", [(1000000, 35), (None, 22)], per=1000, plans=["team"])]},
    {"id": "contract-a", "extends": "reseller", "rates": [
        rate("api_calls", "USD", [(None, 20)], per=1000),
        rate("storage_gb", "USD", [(None, 9)], plans=["team"])]},
    {"id": "contract-b", "extends": "standard", "rates": [rate("api_calls", "EUR", [(2000000, 33), (None, 21)], per=1000)]},
    {"id": "contract-c", "extends": "pro-list", "rates": [rate("storage_gb", "USD", [(100, 12), (None, 7)])]},
    {"id": "deal-x", "extends": "contract-a", "rates": [rate("api_calls", "USD", [(None, 11)], per=1000)]},
]


def sub(sid, plan, book=None, status=None):
    s = {"id": sid, "plan": plan}
    if book:
        s["priceBook"] = book
    if status:
        s["status"] = status
    return s


ACCOUNTS = [
    {"id": "alder", "anchorDay": 1, "subscriptions": [sub("s-alder", "team")]},
    {"id": "birch", "anchorDay": 3, "taxRegion": "US-NY", "contract": {"priceBook": "contract-a", "from": "2025-01-01"},
     "subscriptions": [sub("s-birch", "team")]},
    {"id": "birch-east", "parent": "birch", "subscriptions": [sub("s-birch-east", "team")]},
    {"id": "birch-east-2", "parent": "birch-east", "anchorDay": 2, "subscriptions": [sub("s-birch-east-2", "basic")]},
    {"id": "cedar", "anchorDay": 2, "contract": {"priceBook": "contract-a", "from": "2025-03-01", "until": "2026-02-28"},
     "subscriptions": [sub("s-cedar", "team")]},
    {"id": "dogwood", "anchorDay": 7, "contract": {"priceBook": "contract-c", "from": "2026-03-01"},
     "subscriptions": [sub("s-dogwood", "pro")]},
    {"id": "elm", "anchorDay": 7, "contract": {"priceBook": "contract-c", "from": "2026-03-02"},
     "subscriptions": [sub("s-elm", "pro")]},
    {"id": "fir", "anchorDay": 4, "currency": "EUR", "taxRegion": "NL", "coupon": "TENOFF",
     "contract": {"priceBook": "contract-b", "from": "2024-06-01", "until": "2026-03-01"},
     "subscriptions": [sub("s-fir-1", "team"), sub("s-fir-2", "team", book="standard")]},
    {"id": "gum", "parent": "birch", "anchorDay": 5, "contract": {"priceBook": "reseller", "from": "2025-01-01"},
     "subscriptions": [sub("s-gum", "team")]},
    {"id": "hazel", "anchorDay": 9, "subscriptions": [sub("h-1", "team", book="deal-x"), sub("h-2", "team"),
                                                       sub("h-3", "basic", status="cancelled")]},
    {"id": "ivy", "currency": "EUR", "taxRegion": "DE", "subscriptions": [sub("s-ivy", "team")]},
    {"id": "juniper", "anchorDay": 12, "subscriptions": [sub("s-juniper", "pro")]},
]

USAGE = {
    "s-alder": (1_730_000, 140), "s-birch": (2_210_000, 260), "s-birch-east": (910_000, 75),
    "s-birch-east-2": (330_000, 41), "s-cedar": (1_050_000, 99), "s-dogwood": (4_400_000, 910),
    "s-elm": (2_600_000, 420), "s-fir-1": (3_900_000, 180), "s-fir-2": (760_000, 64), "s-gum": (1_620_000, 88),
    "h-1": (1_111_000, 70), "h-2": (905_000, 51), "h-3": (70_000, 9), "s-ivy": (640_000, 66),
    "s-juniper": (1_980_000, 333),
}


# ---------------------------------------------------------------- what README.md says, in Python

def half_up(n, d):
    q, r = divmod(abs(n), d)
    return (1 if n >= 0 else -1) * (q + 1 if 2 * r >= d else q)


def by_id(items):
    return {x["id"]: x for x in items}


def contract_on(accounts, acct_id, day):
    a = accounts[acct_id]
    while a is not None:
        c = a.get("contract")
        if c and c["from"] <= day and ("until" not in c or day <= c["until"]):
            return c
        a = accounts[a["parent"]] if a.get("parent") else None
    return None


def currency_of(accounts, acct_id, defaults_currency="USD"):
    a = accounts[acct_id]
    while a is not None:
        if "currency" in a:
            return a["currency"]
        a = accounts[a["parent"]] if a.get("parent") else None
    return defaults_currency


def book_for(plans, accounts, acct_id, s, day):
    if s.get("priceBook"):
        return s["priceBook"]
    c = contract_on(accounts, acct_id, day)
    return c["priceBook"] if c else plans[s["plan"]]["defaultBook"]


def card(books, book, plan, metric, currency):
    cur = book
    while cur is not None:
        b = books[cur]
        for e in b["rates"]:
            if e["metric"] == metric and e["currency"] == currency and ("plans" not in e or plan in e["plans"]):
                return e
        cur = b.get("extends")
    raise AssertionError(f"no rate for {metric} {currency} {plan} in {book}")


def charge(quantity, entry):
    remaining, floor, total = quantity, 0, 0
    for t in entry["tiers"]:
        if remaining <= 0:
            break
        width = remaining if t["upTo"] is None else min(remaining, t["upTo"] - floor)
        total += width * t["unitPrice"]
        remaining -= width
        if t["upTo"] is not None:
            floor = t["upTo"]
    return half_up(total, entry.get("per", 1))


def expected(plans_l, books_l, accounts_l, usage, day):
    """Each active subscription's lines as {subscription: [base, api_calls, storage_gb]} in cents,
    and the distinct cards (book, plan, metric, currency) the run needs."""
    plans, books, accounts = by_id(plans_l), by_id(books_l), by_id(accounts_l)
    lines, cards = {}, set()
    for a in accounts_l:
        cur = currency_of(accounts, a["id"])
        for s in a.get("subscriptions", []):
            if s.get("status") == "cancelled":
                continue
            plan = plans[s["plan"]]
            book = book_for(plans, accounts, a["id"], s, day)
            amounts = [plan["baseFee"][cur]]
            for metric, used in zip(("api_calls", "storage_gb"), usage[s["id"]]):
                cards.add((book, s["plan"], metric, cur))
                over = max(0, used - plan["included"][metric])
                amounts.append(charge(over, card(books, book, s["plan"], metric, cur)))
            lines[s["id"]] = amounts
    return lines, cards


def amounts_by_sub(invoices):
    out = {}
    for inv in invoices:
        for line in inv["lines"]:
            out.setdefault(line["subscription"], []).append(line["amount"])
    return out


def check_run(main, root, plans, books, accounts, usage, period=MARCH):
    label, day = period
    run = ledger(main, root, "run", "--period", label)
    want, cards = expected(plans, books, accounts, usage, day)
    assert amounts_by_sub(run["invoices"]) == want
    return run, cards


# ---------------------------------------------------------------- the tests

SAMPLE_PLANS = [
    {"id": "starter", "name": "Starter", "baseFee": {"USD": 2900}, "included": {"api_calls": 100000, "storage_gb": 10},
     "defaultBook": "list"},
    {"id": "growth", "name": "Growth", "baseFee": {"USD": 19900}, "included": {"api_calls": 500000, "storage_gb": 100},
     "defaultBook": "list"},
]
SAMPLE_BOOKS = [
    {"id": "list", "rates": [rate("api_calls", "USD", [(1000000, 40), (None, 25)], per=1000),
                             rate("storage_gb", "USD", [(None, 12)])]},
    {"id": "partner", "extends": "list", "rates": [rate("api_calls", "USD", [(None, 30)], per=1000, plans=["growth"])]},
    {"id": "northwind-msa", "extends": "partner", "rates": [
        rate("api_calls", "USD", [(2000000, 18), (None, 12)], per=1000),
        rate("storage_gb", "USD", [(None, 8)], plans=["growth"])]},
]
SAMPLE_ACCOUNTS = [
    {"id": "acme", "name": "Acme Corp", "subscriptions": [sub("sub-acme-1", "growth")]},
    {"id": "northwind", "name": "Northwind Traders", "anchorDay": 5,
     "contract": {"priceBook": "northwind-msa", "from": "2025-07-01"}, "subscriptions": [sub("sub-nw-1", "growth")]},
    {"id": "northwind-labs", "name": "Northwind Labs", "parent": "northwind", "subscriptions": [sub("sub-nwl-1", "starter")]},
    {"id": "wayne", "name": "Wayne Enterprises", "subscriptions": [sub("sub-wy-1", "starter")]},
    {"id": "hooli", "name": "Hooli", "anchorDay": 15, "subscriptions": [sub("sub-ho-1", "growth")]},
]
SAMPLE_USAGE = {"sub-acme-1": (1_240_000, 130), "sub-nw-1": (3_150_000, 420), "sub-nwl-1": (260_000, 18),
                "sub-wy-1": (95_000, 25), "sub-ho-1": (720_000, 100)}


def test_reported_northwind_invoice_in_the_run(dist, scratch):
    root = write_data(scratch / "d", SAMPLE_PLANS, SAMPLE_BOOKS, SAMPLE_ACCOUNTS, SAMPLE_USAGE)
    run = ledger(dist, root, "run", "--period", "2026-03")
    got = amounts_by_sub(run["invoices"])
    assert got["sub-nw-1"] == [19900, 43800, 2560]
    assert got["sub-nwl-1"] == [2900, 2880, 96]
    assert got["sub-acme-1"] == [19900, 29600, 360]
    assert got["sub-wy-1"] == [2900, 0, 180]
    assert got["sub-ho-1"] == [19900, 8800, 0]
    assert run["stats"]["rateCardsResolved"] == 8


def test_every_subscription_rated_from_its_book(dist, scratch):
    root = write_data(scratch / "d", PLANS, BOOKS, ACCOUNTS, USAGE)
    check_run(dist, root, PLANS, BOOKS, ACCOUNTS, USAGE)


def test_run_invoice_equals_the_invoice_alone(dist, scratch):
    root = write_data(scratch / "d", PLANS, BOOKS, ACCOUNTS, USAGE)
    run = ledger(dist, root, "run", "--period", "2026-03")
    billed = [inv["account"] for inv in run["invoices"]]
    assert sorted(billed) == sorted(a["id"] for a in ACCOUNTS)
    for inv in run["invoices"]:
        assert ledger(dist, root, "invoice", "--account", inv["account"], "--period", "2026-03") == inv


@pytest.mark.parametrize("shift", [0, 5, 11, 19])
def test_billing_order_does_not_change_rates(dist, scratch, shift):
    accounts = copy.deepcopy(ACCOUNTS)
    for i, a in enumerate(accounts):
        a["anchorDay"] = (i * 7 + shift) % 28 + 1
    root = write_data(scratch / "d", PLANS, BOOKS, accounts, USAGE)
    check_run(dist, root, PLANS, BOOKS, accounts, USAGE)


def test_a_contract_account_alone_and_among_others(dist, scratch):
    for acct in ("birch", "birch-east", "fir", "dogwood", "hazel", "alder"):
        chosen = [a for a in ACCOUNTS if a["id"] == acct]
        parents = {a.get("parent") for a in chosen}
        while parents - {None}:
            more = [a for a in ACCOUNTS if a["id"] in parents]
            chosen += more
            parents = {a.get("parent") for a in more}
        subs = {s["id"] for a in chosen for s in a["subscriptions"]}
        usage = {k: v for k, v in USAGE.items() if k in subs}
        root = write_data(scratch / acct, PLANS, BOOKS, chosen, usage)
        check_run(dist, root, PLANS, BOOKS, chosen, usage)


def test_subscription_book_beats_the_contract_and_its_sibling_keeps_the_contract(dist, scratch):
    accounts = [
        {"id": "oak", "anchorDay": 1, "contract": {"priceBook": "contract-a", "from": "2025-01-01"},
         "subscriptions": [sub("oak-1", "team", book="deal-x"), sub("oak-2", "team"), sub("oak-3", "team", book="standard")]},
        {"id": "oak-kid", "parent": "oak", "anchorDay": 2, "subscriptions": [sub("oak-kid-1", "team")]},
        {"id": "pine", "anchorDay": 3, "subscriptions": [sub("pine-1", "team"), sub("pine-2", "team", book="contract-a")]},
    ]
    usage = {"oak-1": (2_500_000, 90), "oak-2": (2_500_000, 90), "oak-3": (2_500_000, 90), "oak-kid-1": (2_500_000, 90),
             "pine-1": (2_500_000, 90), "pine-2": (2_500_000, 90)}
    root = write_data(scratch / "d", PLANS, BOOKS, accounts, usage)
    run, cards = check_run(dist, root, PLANS, BOOKS, accounts, usage)
    got = amounts_by_sub(run["invoices"])
    assert got["oak-1"][1] == 23100 and got["oak-2"][1] == 42000 and got["oak-3"][1] == 73000
    assert got["oak-kid-1"] == got["oak-2"] == got["pine-2"] and got["pine-1"] == got["oak-3"]
    assert run["stats"]["rateCardsResolved"] == len(cards) == 6


@pytest.mark.parametrize("period,day", [("2026-03", "2026-03-01"), ("2026-04", "2026-04-01"), ("2026-02", "2026-02-01")])
def test_contract_in_force_on_the_first_day_of_the_period(dist, scratch, period, day):
    accounts = [
        {"id": "a-list", "subscriptions": [sub("q-1", "team")]},
        {"id": "b-until", "contract": {"priceBook": "contract-a", "from": "2026-01-01", "until": "2026-03-31"},
         "subscriptions": [sub("q-2", "team")]},
        {"id": "c-from", "contract": {"priceBook": "contract-a", "from": "2026-03-01"}, "subscriptions": [sub("q-3", "team")]},
        {"id": "d-late", "contract": {"priceBook": "contract-a", "from": "2026-03-15"}, "subscriptions": [sub("q-4", "team")]},
        {"id": "e-first", "contract": {"priceBook": "contract-a", "from": "2025-01-01", "until": "2026-04-01"},
         "subscriptions": [sub("q-5", "team")]},
        {"id": "e-kid", "parent": "e-first", "contract": {"priceBook": "reseller", "from": "2026-04-02"},
         "subscriptions": [sub("q-6", "team")]},
    ]
    usage = {f"q-{i}": (1_400_000, 77) for i in range(1, 7)}
    root = write_data(scratch / "d", PLANS, BOOKS, accounts, usage, period=period)
    run, cards = check_run(dist, root, PLANS, BOOKS, accounts, usage, period=(period, day))
    assert run["stats"]["rateCardsResolved"] == len(cards)


def test_each_distinct_card_is_looked_up_once(dist, scratch):
    root = write_data(scratch / "d", PLANS, BOOKS, ACCOUNTS, USAGE)
    run, cards = check_run(dist, root, PLANS, BOOKS, ACCOUNTS, USAGE)
    assert run["stats"]["rateCardsResolved"] == len(cards) == 18


def test_one_book_for_many_accounts_is_one_card(dist, scratch):
    accounts = [{"id": f"acct-{i:02d}", "anchorDay": i % 28 + 1, "contract": {"priceBook": "contract-a", "from": "2025-01-01"},
                 "subscriptions": [sub(f"t-{i:02d}", "team")]} for i in range(20)]
    accounts += [{"id": f"list-{i:02d}", "anchorDay": (i * 3) % 28 + 1, "subscriptions": [sub(f"l-{i:02d}", "team")]}
                 for i in range(20)]
    usage = {s["id"]: (600_000 + 10_000 * n, 60 + n) for n, a in enumerate(accounts) for s in a["subscriptions"]}
    root = write_data(scratch / "d", PLANS, BOOKS, accounts, usage)
    run, cards = check_run(dist, root, PLANS, BOOKS, accounts, usage)
    assert run["stats"]["rateCardsResolved"] == len(cards) == 4


def test_quote_prices_from_the_named_book(dist, scratch):
    root = write_data(scratch / "d", PLANS, BOOKS, ACCOUNTS, USAGE)
    q = json.loads(node(dist, "quote", "--plan", "team", "--metric", "requests", "--quantity", "2900000",
                        "--book", "contract-a", "--data", str(root), "--json"))
    assert (q["book"], q["billable"], q["cents"], q["source"]) == ("contract-a", 2500000, 50000, "contract-a")
    q = json.loads(node(dist, "quote", "--plan", "pro", "--metric", "api_calls", "--quantity", "1600000",
                        "--data", str(root), "--json"))
    assert (q["book"], q["cents"], q["source"]) == ("pro-list", 2800, "pro-list")
