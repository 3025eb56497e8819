#!/usr/bin/env python3
"""Walk the "Done when" of issues 22 and 27 on a fresh demo, through the real pages (Playwright +
Chromium) and the management commands, and print what each step saw.

Usage (a fresh database with `migrate` and `load_demo`, the app served on BASE):

    DATABASE_URL=... REDIS_URL=... python scripts/walk_done_when.py --base http://127.0.0.1:8764

The only writes outside the pages: two logins for demo people who have none (Victor Hale, CFS-30005,
terminated; Hank Osei, CFS-10008, who links his record on the identity page himself), as the office
would create them. Exits non-zero at the first step that does not hold.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import re
import subprocess
import sys
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
from totp import totp  # noqa: E402

PY = sys.executable
PASSWORD = "demo-pass-2026"  # noqa: S105 - the demo logins' password (README)
COMMITTEE = ("committee@demo.test", "MRSW23ZNMNXW23LJOR2GKZJNGIYDENRB")
COMMITTEE2 = ("committee2@demo.test", "MRSW23ZNMNXW23LJOR2GKZJSFUZDAMRW")
ADMIN = ("admin@demo.test", "MRSW23ZNMFSG22LOFV2G65DQFUZDAMRW")
PAY_DATE = date(2027, 1, 1)
results: list[tuple[str, bool, str]] = []


def step(name: str, ok: bool, seen: str = "") -> None:
    results.append((name, ok, seen))
    print(f"[{'ok' if ok else 'FAIL'}] {name}" + (f"\n       {seen}" if seen else ""), flush=True)


def manage(*args: str) -> str:
    out = subprocess.run(
        [PY, "manage.py", *args], cwd=ROOT, capture_output=True, text=True, check=False, env=os.environ
    )
    if out.returncode:
        raise RuntimeError(f"manage.py {' '.join(args)} failed: {out.stderr.strip().splitlines()[-1]}")
    return out.stdout


_last: dict[str, str] = {}


def fresh_code(secret: str) -> str:
    if 30 - time.time() % 30 < 4:
        time.sleep(30 - time.time() % 30 + 0.2)
    code = totp(secret)
    while code == _last.get(secret):
        time.sleep(30 - time.time() % 30 + 0.5)
        code = totp(secret)
    _last[secret] = code
    return code


class Walk:
    def __init__(self, browser, base: str):
        self.browser, self.base = browser, base

    def login(self, email: str, secret: str | None = None):
        ctx = self.browser.new_context(base_url=self.base, viewport={"width": 1280, "height": 900})
        page = ctx.new_page()
        page.set_default_timeout(60_000)
        page.goto("/accounts/login/")
        page.fill("input[name=login]", email)
        page.fill("input[name=password]", PASSWORD)
        page.click("button[type=submit]")
        if secret:
            page.wait_for_url("**/accounts/2fa/authenticate/")
            page.fill("input[name=code]", fresh_code(secret))
            page.click("button[type=submit]")
        page.wait_for_load_state("networkidle")
        return page


def main_text(page) -> str:
    return page.locator("main").inner_text()


def submit(page, name: str) -> None:
    page.get_by_role("button", name=name, exact=True).click()
    page.wait_for_load_state("networkidle")


def first_of_month_after(days: int) -> date:
    from datetime import timedelta

    d = date.today() + timedelta(days=days)  # noqa: DTZ011 - the server's calendar day
    return date(d.year + (d.month == 12), d.month % 12 + 1, 1)


def setup_logins() -> None:
    """Logins for Victor (linked, as the office would) and Hank (unlinked: he links himself)."""
    manage(
        "shell",
        "-c",
        "from accounts.models import User; from allauth.account.models import EmailAddress;"
        "from benefits.models import Participant\n"
        "for email, number in (('victor@walk.test', 'CFS-30005'), ('hank@walk.test', None)):\n"
        "    u, _ = User.objects.get_or_create(email=email, defaults={'role': 'participant'})\n"
        f"    u.set_password('{PASSWORD}'); u.save()\n"
        "    EmailAddress.objects.update_or_create(user=u, email=email, defaults={'verified': True, 'primary': True})\n"
        "    if number: Participant.objects.filter(participant_number=number).update(user=u)\n",
    )


def statement_figures(page) -> dict:
    page.goto("/benefits/")
    page.get_by_role("link", name=re.compile("^Statement")).nth(1).click()  # the 401(k) plan's
    page.wait_for_load_state("networkidle")
    text = main_text(page)
    loan = re.search(
        r"Loan outstanding: \$([\d,]+\.\d\d)\. Largest new loan available: \$([\d,]+\.\d\d)", text
    )
    return {"url": page.url, "text": text, "loan": loan.groups() if loan else None}


def s1_second_commencement(w: Walk) -> None:
    page = w.login("pat@demo.test")
    page.goto("/claims/")
    before = page.locator("table tbody tr").count()
    page.get_by_role("link", name=re.compile("^Start of benefit payments")).first.click()
    page.wait_for_load_state("networkidle")
    page.get_by_label("Date you want payments to start").fill(first_of_month_after(60).isoformat())
    page.get_by_label("Form of payment").select_option("js50")
    page.get_by_label("Your statement of the claim").fill("I would like my pension to start.")
    submit(page, "Submit the claim")
    text = main_text(page)
    m = re.search(r"You already have a claim to start this benefit[^.]*?claim \d+[^.]*\.", text)
    page.goto("/claims/")
    after = page.locator("table tbody tr").count()
    step(
        "22: a second commencement of pat's Carver DB benefit is refused, naming the first",
        bool(m) and before == after,
        (m.group(0) if m else text[:300]) + f" (claims listed: {before} before, {after} after)",
    )
    page.context.close()


def s2_modeler_claim(w: Walk) -> None:
    page = w.login("hank@walk.test")
    page.goto("/account/link/")
    if "/account/link/" in page.url:  # not linked yet: Hank links his own record
        page.get_by_label("Participant number").fill("CFS-10008")
        page.get_by_label("Date of birth").fill("1970-12-12")
        page.get_by_label("Last four digits of your Social Security number").fill("1008")
        page.locator("main button[type=submit]").last.click()
        page.wait_for_load_state("networkidle")
    page.get_by_role("link", name=re.compile("^Model retirement dates")).first.click()
    page.wait_for_load_state("networkidle")
    page.locator("#id_dates").fill(
        f"{first_of_month_after(40).isoformat()}, {first_of_month_after(70).isoformat()}"
    )
    page.get_by_role("button", name="Calculate").click()
    page.wait_for_load_state("networkidle")
    for _ in range(30):  # the calculation runs as a job; the page refreshes itself
        if "/modeler/" in page.url and page.get_by_text("Every form of payment").count():
            break
        time.sleep(1)
        page.reload()
    buttons = [b.inner_text() for b in page.locator("main form button").all()]
    start = [b for b in buttons if b == "File my claim to start payments"]
    if not start:
        step(
            "22: the election from the modeler files a claim",
            False,
            f"no start offered: {buttons}; " + main_text(page)[:600],
        )
        page.context.close()
        return
    page.get_by_role("button", name=start[0]).first.click()
    page.wait_for_load_state("networkidle")
    text = main_text(page)
    claim = re.search(r"/claims/(\d+)/", page.url)
    step(
        "22: the election from the modeler files a commencement claim",
        bool(claim),
        page.url + " " + text[:300],
    )
    page.context.close()
    if claim:
        c = w.login(*COMMITTEE)
        c.get_by_role("link", name="Claims queue").first.click()
        c.wait_for_load_state("networkidle")
        seen = c.get_by_role("link", name=re.compile(rf"^{claim.group(1)}: ")).count()
        step("22: the committee sees the modeler's claim in its queue", seen > 0, f"claim {claim.group(1)}")
        c.context.close()


CONSENT_PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"


def choose(page, label: str) -> None:
    """USWDS hides radios and checkboxes off-screen: click the label, as a person does."""
    page.locator("label", has_text=label).first.click()


def committee_decides(w: Walk, claim_id: int, provisions: str) -> str:
    """The committee approves (each member in turn where a majority of seats decides)."""
    state = ""
    for who in (COMMITTEE, COMMITTEE2):
        page = w.login(*who)
        page.goto(f"/claims/{claim_id}/")
        if page.get_by_role("button", name="Start the review").count():
            submit(page, "Start the review")
        if not page.get_by_label("Decision", exact=True).count():
            page.context.close()
            break
        page.get_by_label("Decision", exact=True).select_option("approved")
        page.get_by_label("Reasons", exact=True).fill("The claim meets the plan's conditions.")
        page.get_by_label("Plan provisions relied on").fill(provisions)
        submit(page, "Record the decision and send the notice")
        state = main_text(page)[:400]
        page.context.close()
    return state


def elect_and_consent(page, *, form_label: str, tmp: Path) -> str:
    """From the claim page: the explanation, the form, the payment (direct deposit, Form W-4R), the
    signature, and the spouse's notarized consent uploaded. Returns the page's text after the upload."""
    submit(page, "Read the explanation and make my election")
    choose(page, "I have read this explanation of my choices, my rights and the dates.")
    submit(page, "Continue to choose a form of payment")
    choose(page, form_label)
    submit(page, "Continue")
    choose(page, "Direct deposit to my bank account")
    page.get_by_label("Bank routing number (9 digits)").fill("011000015")
    page.locator("input[name=account_number]").fill("12345678")
    page.locator("select[name=account_type]").select_option("checking")
    rate = page.locator("input[name=w4r_rate]")
    if rate.count():
        rate.fill("20")
    submit(page, "Continue")
    if not page.get_by_label("Your password").count():
        raise RuntimeError("the payment step did not lead to the signature: " + main_text(page)[:1500])
    page.get_by_label("Your password").fill(PASSWORD)
    choose(page, "I have read the explanation and I make this election.")
    submit(page, "Sign my election")
    if not page.locator("input[type=file][name=document]").count():
        return main_text(page)
    scan = tmp / "signed-consent.pdf"
    scan.write_bytes(CONSENT_PDF)
    page.locator("input[type=file][name=document]").set_input_files(str(scan))
    page.get_by_label("Date your spouse signed").fill(date.today().isoformat())  # noqa: DTZ011
    choose(page, "A notary public")
    page.get_by_label("Witness's full name").fill("Alex Rivera")
    page.get_by_label("Notary's commission number").fill("01RI6123456")
    page.get_by_label("State of commission (2 letters)").fill("NY")
    page.get_by_label("Commission expires").fill("2029-06-30")
    choose(page, "In person")
    submit(page, "Upload the consent")
    return main_text(page)


def admin_verifies_consent(w: Walk, link_name: str) -> str:
    page = w.login(*ADMIN)
    page.get_by_role("link", name="Consents").first.click()
    page.wait_for_load_state("networkidle")
    page.get_by_role("link", name=re.compile(link_name)).first.click()
    page.wait_for_load_state("networkidle")
    submit(page, "Verify: the form is complete and correct")
    text = main_text(page)
    page.context.close()
    return text


def s3_victor(w: Walk) -> None:
    import tempfile

    page = w.login("victor@walk.test")
    page.goto("/claims/")
    filed = page.get_by_role("link", name=re.compile(r"^\d+: Distribution after termination"))
    if filed.count():  # a walk resumed: the claim is there
        claim_id = int(filed.first.inner_text().split(":")[0])
        decided = "(resumed)"
    else:
        page.get_by_role("link", name=re.compile("^Distribution after termination")).first.click()
        page.wait_for_load_state("networkidle")
        page.get_by_label("Date you want payments to start").fill(PAY_DATE.isoformat())
        page.get_by_label("Form of payment").select_option("lump_sum")
        page.get_by_label("Your statement of the claim").fill("I left Carver in 2024; please pay my account.")
        submit(page, "Submit the claim")
        claim = re.search(r"/claims/(\d+)/", page.url)
        step(
            "22: CFS-30005 files a distribution after leaving",
            bool(claim),
            page.url + " " + main_text(page)[:200],
        )
        if not claim:
            return
        claim_id = int(claim.group(1))
        decided = committee_decides(w, claim_id, "Plan §10.1, §10.2")
    page.goto(f"/claims/{claim_id}/")
    text = main_text(page)
    offered = page.get_by_role("button", name="Read the explanation and make my election").count() > 0
    step(
        "22: the approved distribution after leaving offers its election on the claim",
        offered,
        decided[:200] + " | " + text[:300],
    )
    if not offered:
        return
    with tempfile.TemporaryDirectory() as tmp:
        after = elect_and_consent(page, form_label="Lump sum", tmp=Path(tmp))
    page.context.close()
    verified = admin_verifies_consent(w, "Victor Hale")
    page = w.login("victor@walk.test")
    page.goto(f"/claims/{claim_id}/")
    text = main_text(page)
    step(
        "22: CFS-30005's lump sum reaches its election and a payment scheduled for January 1, 2027",
        "Scheduled for January 1, 2027" in text,
        re.sub(r"\s+", " ", text[:500]) + " | after upload: " + after[:150] + " | verify: " + verified[:150],
    )
    page.goto("/payments/")
    step(
        '27: Victor\'s payment page shows the payment, its withholding and no "paid"',
        "paid on" not in main_text(page).lower(),
        re.sub(r"\s+", " ", main_text(page)[:600]),
    )
    page.context.close()


def due_json() -> tuple[str, dict]:
    out = manage("payments_due", PAY_DATE.isoformat(), "--json")
    last = out.strip().splitlines()[-1]
    return last, json.loads(last)


def s4_before(w: Walk) -> None:
    first, due = due_json()
    second, _ = due_json()
    kinds = sorted((p["kind"], p["gross"], p["withholding"], p["net"], p["state"]) for p in due["payments"])
    step(
        "22: payments_due 2027-01-01 --json twice gives the same output (before the export)",
        first == second,
        f"{len(due['payments'])} payments: {kinds}",
    )
    page = w.login("pat@demo.test")
    fig = statement_figures(page)
    BEFORE.update(fig)
    words = []
    for url in ("/benefits/", "/payments/", "/claims/"):
        page.goto(url)
        t = main_text(page)
        words += [
            f"{url}: {m}"
            for m in re.findall(r"[^.\n]*\b(?:paid on|PAID|loan made|in pay)\b[^.\n]*", t)
            if "Nothing has been paid" not in m and "paid to you" not in m and "is paid out" not in m
        ]
    step(
        '22: nothing reads "paid" for pat before the agent confirms',
        not words,
        "; ".join(words)[:600] or f"loan line before: {fig['loan']}",
    )
    page.context.close()


BEFORE: dict = {}
CSV_TEXT: dict = {}


def s5_export_and_confirm(w: Walk) -> None:
    import tempfile

    page = w.login(*ADMIN)
    page.goto(f"/payments/staff/?date={PAY_DATE.isoformat()}")
    listed = main_text(page)
    if page.get_by_role("button", name="Make the instruction file").count():
        submit(page, "Make the instruction file")
    with page.expect_download() as dl:
        page.get_by_role("link", name="Download the instruction file").click()
    path = dl.value.path()
    text = Path(path).read_text()
    again_dl = None
    with page.expect_download() as dl2:
        page.get_by_role("link", name="Download the instruction file").click()
    again_dl = Path(dl2.value.path()).read_text()
    rows = list(csv.DictReader(io.StringIO(text)))
    step(
        "22: the admin exports the January 1, 2027 pay date (same file on a second download)",
        bool(rows) and text == again_dl,
        f"{len(rows)} rows: "
        + "; ".join(
            f"{r['payee']} {r['kind']} {r['gross']} w/h {r['withholding']} net {r['net']} {r['method']}"
            for r in rows
        ),
    )
    CSV_TEXT["instructions"] = text
    conf = io.StringIO()
    wr = csv.writer(conf, lineterminator="\n")
    wr.writerow(["payment", "pay_date", "status", "date", "reference", "gross", "reason"])
    for r in rows:
        wr.writerow(
            [r["payment"], r["pay_date"], "paid", r["pay_date"], f"AGENT-{r['payment']}", r["gross"], ""]
        )
    if date.today() < PAY_DATE:  # noqa: DTZ011 - the server's calendar day
        # A paid date after today is refused (payments/confirmations.py): the file is imported on its
        # pay date, the clock of that one command moved there (time_machine), not through the page.
        done = confirm_on_the_pay_date(conf.getvalue())
        step(
            "22: the paying agent's confirmation file imports through the data import (on its pay date)",
            done.startswith("applied"),
            done[:500],
        )
        page.context.close()
        return
    with tempfile.TemporaryDirectory() as tmp:
        f = Path(tmp) / "confirmations-2027-01-01.csv"
        f.write_text(conf.getvalue())
        page.goto("/benefits/staff/imports/") if False else page.get_by_role(
            "link", name="Data imports"
        ).first.click()
        page.wait_for_load_state("networkidle")
        page.select_option("select[name=kind]", "payment_confirmations")
        page.set_input_files("input[name=file]", str(f))
        page.get_by_role("button", name="Check the file").click()
        page.wait_for_load_state("networkidle")
        preview = main_text(page)
        buttons = [b.inner_text() for b in page.locator("main form button").all()]
        go = [b for b in buttons if b.startswith("Import")]
        if go:
            page.get_by_role("button", name=go[0]).first.click()
            page.wait_for_load_state("networkidle")
        done = main_text(page)
    step(
        "22: the paying agent's confirmation file imports through the data import",
        bool(go) and "Imported" in done,
        re.sub(r"\s+", " ", (done if go else preview)[:500])
        + f" | listed before export: {re.sub(r'\s+', ' ', listed[:300])}",
    )
    page.context.close()


def confirm_on_the_pay_date(text: str) -> str:
    """Import the confirmation file as the admin with the clock at noon of PAY_DATE; its status and errors."""
    code = (
        "import time_machine; from datetime import datetime, time; from django.utils import timezone\n"
        "from accounts.models import User; from benefits.imports import services as imports\n"
        f"noon = timezone.make_aware(datetime.combine(datetime.fromisoformat({PAY_DATE.isoformat()!r}), time(12)))\n"
        "with time_machine.travel(noon, tick=True):\n"
        f"    batch, checked = imports.import_run(kind='payment_confirmations', file_name='confirmations-{PAY_DATE}.csv',"
        f" content={text!r}.encode(), dry_run=False, valid_rows_only=False,"
        f" actor=User.objects.get(email={ADMIN[0]!r}))\n"
        "print(batch.status, [e.message for e in checked.errors][:3])\n"
    )
    return manage("shell", "-c", code).strip().splitlines()[-1]


def s6_after(w: Walk) -> None:
    page = w.login("pat@demo.test")
    fig = statement_figures(page)
    text = fig["text"]
    shown = [line for line in text.splitlines() if re.search(r"withdraw|loan|Payment \d+", line, re.I)]
    step(
        "22: pat's 401(k) statement shows the withdrawal and the loan",
        any("withdraw" in line.lower() for line in shown) and any("loan" in line.lower() for line in shown),
        " / ".join(shown)[:800],
    )
    step(
        "22: the loan outstanding and the largest new loan move",
        fig["loan"] != BEFORE.get("loan"),
        f"before {BEFORE.get('loan')}, after {fig['loan']}",
    )
    bal = lambda t: re.findall(r"\$[\d,]+\.\d\d", t)[:6]  # noqa: E731
    step(
        "22: the 401(k) balance figures move",
        bal(text) != bal(BEFORE.get("text", "")),
        f"before {bal(BEFORE.get('text', ''))}, after {bal(text)}",
    )
    page.goto("/payments/")
    hist = main_text(page)
    step(
        "27: pat's payment history shows gross, withholding and net",
        "Payment history" in hist and "$2,000.00" in hist,
        re.sub(r"\s+", " ", hist[:900]),
    )
    page.context.close()
    first, due = due_json()
    second, _ = due_json()
    step(
        "22: payments_due 2027-01-01 --json twice gives the same output (after confirmation)",
        first == second,
        str(sorted((p["kind"], p["state"]) for p in due["payments"])),
    )
    for year in ("2026",):
        a = json.loads(manage("forms_1099r", year, "--json").strip().splitlines()[-1])
        b = json.loads(manage("forms_1099r", year, "--json").strip().splitlines()[-1])
        step(
            f"27: forms_1099r {year} --json issues once, then none",
            b["issued"] == 0 and not a["failed"],
            f"first {a}, again {b}",
        )


def run(base: str) -> int:
    from playwright.sync_api import sync_playwright

    setup_logins()
    only = os.environ.get("WALK_ONLY", "")
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path="/usr/bin/chromium",
            args=["--no-sandbox", "--disable-background-networking"],
            headless=True,
        )
        w = Walk(browser, base)
        for name, fn in STEPS:
            if only and name not in only.split(","):
                continue
            try:
                fn(w)
            except Exception as exc:  # noqa: BLE001 - a step that breaks is reported, the walk goes on
                step(f"{name}: raised", False, f"{type(exc).__name__}: {str(exc)[:3000]}")
        browser.close()
    print()
    for name, ok, _ in results:
        print(f"{'PASS' if ok else 'FAIL'}  {name}")
    return 0 if all(ok for _, ok, _ in results) else 1


STEPS = [
    ("s1", s1_second_commencement),
    ("s2", s2_modeler_claim),
    ("s3", s3_victor),
    ("s4", s4_before),
    ("s5", s5_export_and_confirm),
    ("s6", s6_after),
]

if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="http://127.0.0.1:8000")
    sys.exit(run(parser.parse_args().base))
