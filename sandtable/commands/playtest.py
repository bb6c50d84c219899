"""`sandtable playtest battle`: the odds of a battle, exact where possible, simulated otherwise."""
from __future__ import annotations

import json

from ..cli import EXIT_OK, UsageError


def register(commands) -> None:
    parser = commands.add_parser("playtest", help="playtest a scenario with the bundled engine",
                                 description="Playtest a scenario with the bundled engine.")
    kinds = parser.add_subparsers(dest="playtest", metavar="WHAT", required=True)
    battle = kinds.add_parser(
        "battle", help="the odds of one battle",
        description="Attacker, defender and draw probabilities, survivors, expected losses "
        "in the game system's own terms (IPC, VP, ships sunk ...) and their swing, and rounds "
        "of one battle. Exact where the state space allows; otherwise simulated, with 95% "
        "intervals.")
    battle.add_argument("scenario", metavar="SCENARIO", help="a scenario folder")
    battle.add_argument("--attacker", required=True, action="append", metavar="FORCE",
                        help="'germany: 3 infantry, 2 armour, 1 fighter'")
    battle.add_argument("--defender", action="append", default=[], metavar="FORCE",
                        help="'soviet-union: 4 infantry'; repeat for allies defending together. "
                        "Required, except in systems where a battle may have no defender (an "
                        "Allies vs. Axis neutral territory; 'allies:' is one its owner left empty)")
    battle.add_argument("--at", required=True, metavar="SPACE", help="the space id")
    battle.add_argument("--runs", type=int, default=10000, help="battles to simulate")
    battle.add_argument("--seed", type=int, default=None, help="seed of the dice")
    method = battle.add_mutually_exclusive_group()
    method.add_argument("--exact", action="store_true", default=None,
                        help="insist on the exact answer")
    method.add_argument("--simulate", dest="exact", action="store_false",
                        help="simulate even where the exact answer is available")
    battle.add_argument("--json", action="store_true", help="print the report as JSON")
    battle.add_argument("--order-of-loss", default="cheapest", metavar="POLICY",
                        help="cheapest (default), weakest, or unit types in order, "
                        "as 'infantry,armour,fighter'")
    battle.add_argument("--no-keep-land-unit", dest="keep_land_unit", action="store_false",
                        default=None, help="do not keep a land unit to take the territory")
    battle.add_argument("--retreat-at", type=int, default=0, metavar="N",
                        help="the attacker retreats when N or fewer of its units are left")
    battle.add_argument("--research", action="append", default=[], metavar="NATION:IDS",
                        help="'germany: jet-fighters, heavy-bombers' (repeatable)")
    battle.add_argument("--landing", default=None, metavar="UNITS",
                        help="the attacker's units that land from transports: '2 infantry'")
    battle.add_argument("--bombard", default=None, metavar="FORCE",
                        help="ships bombarding the shore: 'germany: 1 battleship'")
    battle.add_argument("--raid", action="store_true",
                        help="a strategic bombing raid on the space's factory")
    battle.add_argument("--damage", type=int, default=0,
                        help="damage already on the factory (for --raid)")
    battle.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a setting of the scenario's game system (repeatable); "
                        "'--option list' lists them")
    battle.set_defaults(run=run, battle_parser=battle)
    from . import playtest_games
    playtest_games.register(kinds)
    from . import playtest_chart
    playtest_chart.register(kinds)
    from . import playtest_balance
    playtest_balance.register(kinds)
    from . import playtest_ladder
    playtest_ladder.register(kinds)


def run(args) -> int:
    from engine import EngineError, UnknownName
    from engine.calculator import parse_force, run_battle
    from engine.options import SettingError, resolve, settings_of_position
    from engine.system import BattlePosition, load_system
    from sandtable.scenario import load_scenario

    from .playtest_study import progress_bar

    scenario = load_scenario(args.scenario)
    if "scenario" in scenario.failed_kinds or not scenario.manifest:
        raise UsageError(f"{args.scenario} is not a scenario folder")
    try:
        system = load_system(scenario)
        settings = settings_of_position(system.position_type, BattlePosition)
        if args.option == ["list"]:
            print("\n".join(s.describe() for s in settings)
                  or f"{scenario.system} battles have no settings of their own")
            return EXIT_OK
        extras = resolve(args.option, settings)
        if not args.defender and not system.defender_optional:   # as argparse says it
            args.battle_parser.error("the following arguments are required: --defender")
        attacker = _one_attacker([parse_force(text) for text in args.attacker])
        defenders = [parse_force(text, empty=system.defender_optional) for text in args.defender]
        landing = parse_force(f"{attacker.owner}: {args.landing}").units if args.landing else None
        bombard = parse_force(args.bombard) if args.bombard else None
        research: dict[str, set[str]] = {}
        for text in args.research:
            nation, _, options = text.partition(":")
            research.setdefault(nation.strip(), set()).update(
                o.strip() for o in options.split(",") if o.strip())
        with progress_bar(args.runs, quiet=args.json, label="battles") as show:
            report = run_battle(scenario, attacker, defenders, args.at, runs=args.runs,
                                seed=args.seed, exact=args.exact, progress=show,
                                order_of_loss=args.order_of_loss, retreat_at=args.retreat_at,
                                keep_land_unit=args.keep_land_unit, research=research,
                                landing=landing, bombard=bombard, raid=args.raid,
                                damage=args.damage, extras=extras)
    except (ValueError, UnknownName, EngineError, SettingError) as problem:
        raise UsageError(str(problem)) from None
    if args.json:
        print(json.dumps(report.as_dict(), indent=2))
    else:
        print(system.render_battle(report, [attacker, *defenders], args.at)
              or (_render_raid(report, attacker, defenders, args.at) if args.raid
                  else _render(report, attacker, defenders, args.at)))
    return EXIT_OK


def _one_attacker(forces):
    """One nation attacks (AA50 §5.5.4): forces of one nation given twice are added up, two
    nations are refused rather than one of them silently dropped."""
    from engine.calculator import Force
    owners = sorted({force.owner for force in forces})
    if len(owners) > 1:
        raise ValueError("only one nation attacks in a battle: give one --attacker, or several "
                         f"of the same nation (got {', '.join(owners)})")
    units: dict[str, int] = {}
    for force in forces:
        for unit, count in force.units.items():
            units[unit] = units.get(unit, 0) + count
    return Force(owners[0], units)


def _render_raid(report, attacker, defenders, space: str) -> str:
    lines = [f"Strategic bombing raid on {space} ({_method(report)})",
             f"  bombers   {attacker}"]
    lines += [f"  target    {force}" for force in defenders]
    lines += ["",
              f"  some bombers get through  {100 * report.attacker_wins:6.2f}%",
              f"  all shot down             {100 * report.defender_wins:6.2f}%",
              f"  expected damage           {report.expected_defender_loss:.2f} {report.loss_unit}",
              f"  expected bombers lost     {report.expected_attacker_loss:.2f} {report.loss_unit}"]
    return "\n".join(lines)


def _method(report) -> str:
    if report.method == "exact":
        return "exact"
    return f"Monte Carlo, {report.runs} battles" + (
        f", seed {report.seed}" if report.seed is not None else "")


def _render(report, attacker, defenders, space: str) -> str:
    lines = [f"Battle at {space} ({_method(report)})",
             f"  attacker  {attacker}"]
    lines += [f"  defender  {force}" for force in defenders] or ["  defender  none (nobody owns it)"]
    lines.append("")
    for label, key in (("attacker wins", "attacker_wins"), ("defender wins", "defender_wins"),
                       ("draw", "draws")):
        lines.append(f"  {label:<14}{100 * getattr(report, key):6.2f}%{report.interval_text(key)}")
    lines.append("")
    unit = report.loss_unit
    lines.append(f"  expected losses  attacker {report.expected_attacker_loss:.2f} {unit}, "
                 f"defender {report.expected_defender_loss:.2f} {unit} "
                 f"(swing {report.swing:+.2f})")
    lines.append(f"  mean rounds      {report.mean_rounds:.2f}")
    for label, survivors in (("attacker", report.attacker_survivors),
                             ("defender", report.defender_survivors)):
        shown = ", ".join(f"{n}: {100 * p:.1f}%" for n, p in sorted(survivors.items()) if p >= 0.0005)
        lines.append(f"  {label} units left  {shown}")
    return "\n".join(lines)
