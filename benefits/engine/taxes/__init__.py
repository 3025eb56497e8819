"""The federal tax rules around a plan payment (pure: no Django).

* ``distributions``: the kinds of payment the product makes and who receives them.
* ``rollover``: whether a payment is an eligible rollover distribution (Code §402(c)(4), (9), (11)).
* ``notice_timing``: when the §402(f) notice must be given (Treas. Reg. §1.402(f)-1 Q&A-2).
* ``withholding``: federal income tax withheld (Code §3405; Forms W-4R and W-4P; Pub. 15-T).
* ``form_1099r``: the boxes of Form 1099-R (2026 Instructions for Forms 1099-R and 5498).
"""
