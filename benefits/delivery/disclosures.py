"""What a participant is told before consenting to electronic delivery.

Treas. Reg. §1.401(a)-21(b)(2) (the consent method, which follows E-SIGN §101(c)(1)): before consenting
the recipient is given a clear statement of (i) the right to have the document on paper, and to withdraw
the consent, with any conditions, consequences or fees; (ii) whether the consent covers one document or
identified categories; (iii) how to withdraw and how to update the contact information; (iv) how to get a
paper copy after consenting and whether there is a fee; and (v) the hardware and software needed to open
and keep the documents. The consent must be given in a way that shows the person can open the format
(the test document and its code). The words below are stored with each consent, as shown.

Change a text → raise ``VERSION``: every consent records the version and the words it was given on.
"""

from __future__ import annotations

VERSION = "2026-11"

# (key, heading, text): key is stored with the consent, the heading and text are what the person reads.
DISCLOSURES: tuple[tuple[str, str, str], ...] = (
    (
        "scope",
        "What this covers",
        "Your consent covers every notice and statement the plans send you: explanations of your payment "
        "options, survivor benefit explanations, rollover notices and annual statements. Each one is put on "
        "your documents page and we email you that it is there. The email never contains the document "
        "or any of its figures.",
    ),
    (
        "paper_copy",
        "Paper copies are free",
        "You may ask for a paper copy of any document at any time, free of charge, by writing to or "
        "calling the plan administrator. Asking for a paper copy does not withdraw your consent.",
    ),
    (
        "withdraw",
        "You can change your mind",
        "You may withdraw your consent at any time on this page, free of charge and with no effect on your "
        "benefits. From then on every document is mailed to you on paper. A document already emailed "
        "stays on your documents page.",
    ),
    (
        "hardware_software",
        "What you need",
        "A device with an internet connection and a current web browser to sign in to this site; a PDF "
        "reader (most browsers include one) to open the documents; and an email account. To keep a "
        "document, download the PDF or print it. If these needs change, we will tell you and you may "
        "withdraw without any fee.",
    ),
    (
        "email_address",
        "Your email address",
        "We send the emails to the address you give below. To change it, come back to this page and "
        "consent again with the new address; the new address is used from then on.",
    ),
)


def snapshot() -> dict:
    """The disclosures as shown, for the consent record."""
    return {
        "version": VERSION,
        "items": [{"key": k, "heading": h, "text": t} for k, h, t in DISCLOSURES],
    }
