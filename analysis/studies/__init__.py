

def spec_doc(spec) -> dict:
    """A study spec (a dataclass) as stored: its fields, without ``rule_set`` when no rule set was
    named, so a study stored before rule sets existed still matches its spec and resumes."""
    from dataclasses import asdict
    d = asdict(spec)
    if d.get("rule_set", "") is None:
        del d["rule_set"]
    return d
