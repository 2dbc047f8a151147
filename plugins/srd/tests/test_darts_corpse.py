"""Magic missile's darts strike at once (srd-43); a dart after an earlier one killed its
monster strikes the body: its die is rolled (the darts fly together) but the dead creature
takes nothing more, and the report's total is what it took while alive."""

from srd_cli import fight, monster, ok, sample


def test_srd_43_darts_after_the_kill_strike_a_corpse_and_add_no_damage(tmp_path):
    gm = fight(tmp_path / "den.db", "Den", "20,1",
               sample("ilse", "wizard", "Ilse"), monster("owl", "owlbear"))  # fmt: skip
    ok(gm, "harm", "owl", "55")  # 4 of 59 left
    out = ok(gm, "act", "ilse", "cast", "--opt", "spell=magic missile", "owl", "--dice", "4,2,3")
    assert "Owlbear takes 5 damage" in out and "Owlbear is dead" in out
    assert "Owlbear takes 3 damage" not in out and "Owlbear takes 4 damage" not in out, out
    assert "dart 2 strikes Owlbear's body (3 force): Owlbear is already dead" in out, out
    assert "dart 3 strikes Owlbear's body (4 force): Owlbear is already dead" in out, out
    report = ok(gm, "export", "--format", "md")
    assert "Owlbear takes 12 force damage" not in report
    assert "Owlbear takes 3 damage" not in report and "Owlbear takes 4 damage" not in report
