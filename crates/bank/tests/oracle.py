"""Oracle for crates/bank/tests/oracles.rs: reads statement files with independent
Python libraries and prints one JSON line per file, transactions in file order.

usage: oracle.py mt940|camt FILE...
  mt940: the PyPI package mt-940 (module mt940), 4.x-style ?31 IBAN and RC sign options
  camt:  the PyPI package pycamt (Camt053Parser)
"""
import json
import sys


def mt940_file(path):
    import mt940
    from mt940.options import Options

    options = Options(applicant_iban=True, reversal_sign=True)
    transactions = mt940.models.Transactions(options=options)
    with open(path, encoding="latin-1") as f:
        transactions.parse(f.read())
    out = []
    for t in transactions:
        d = t.data
        purpose = d.get("purpose")
        if purpose is None and "purpose" not in d:
            purpose = d.get("transaction_details")
        out.append({
            "amount": str(d["amount"].amount),
            "currency": d["amount"].currency,
            "value_date": str(d["date"]),
            "booking_date": str(d.get("entry_date") or d["date"]),
            "name": d.get("applicant_name"),
            "iban": d.get("applicant_iban"),
            "purpose": purpose,
            "end_to_end_id": d.get("end_to_end_reference"),
            "bank_reference": d.get("bank_reference"),
        })
    return {"transactions": out}


def camt_file(path):
    from pycamt.parser import Camt053Parser

    parser = Camt053Parser.from_file(path)
    out = []
    for t in parser.get_transactions():
        credit = t.get("CreditDebitIndicator") == "CRDT"
        booking = t.get("BookingDate")
        value = t.get("ValueDate")
        out.append({
            "amount": ("" if credit else "-") + t["Amount"],
            "currency": t.get("Currency"),
            "booking_date": booking[:10] if booking else None,
            "value_date": value[:10] if value else None,
            "name": t.get("DebtorName") if credit else t.get("CreditorName"),
            "iban": t.get("DebtorIBAN") if credit else t.get("CreditorIBAN"),
            "purpose": t.get("RemittanceInformationFull"),
            "end_to_end_id": t.get("EndToEndId"),
        })
    statements = [
        {
            "iban": s.get("IBAN"),
            "opening": s.get("OpeningBalance"),
            "closing": s.get("ClosingBalance"),
        }
        for s in parser.get_statement_info()
    ]
    return {"transactions": out, "statements": statements}


def main():
    kind, paths = sys.argv[1], sys.argv[2:]
    read = mt940_file if kind == "mt940" else camt_file
    for path in paths:
        print(json.dumps(read(path)))


main()
