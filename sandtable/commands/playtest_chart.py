"""`sandtable playtest chart`: one chart of a game system, resolved exactly."""
from __future__ import annotations

import json

from ..cli import EXIT_OK, UsageError


def register(kinds) -> None:
    chart = kinds.add_parser(
        "chart", help="the exact distribution of one chart",
        description="Every result of one of the game system's charts (air combat, flak, "
        "attrition ...) with its exact probability. Without CHART, lists the charts. Combat "
        "and barrage are battles: see 'playtest battle'.")
    chart.add_argument("scenario", metavar="SCENARIO", help="a scenario folder")
    chart.add_argument("chart", metavar="CHART", nargs="?", default=None,
                       help="the chart's id; leave out to list the charts")
    chart.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                       help="an input of the chart (repeatable); '--option list' lists them")
    chart.add_argument("--json", action="store_true", help="print the answer as JSON")
    chart.set_defaults(run=run)


def run(args) -> int:
    from engine import EngineError, UnknownName
    from engine.options import SettingError
    from engine.resolvers import chart_resolvers, find_chart
    from sandtable.scenario import load_scenario

    scenario = load_scenario(args.scenario)
    if "scenario" in scenario.failed_kinds or not scenario.manifest:
        raise UsageError(f"{args.scenario} is not a scenario folder")
    try:
        resolvers = chart_resolvers(scenario)
        if args.chart is None:
            return _list(resolvers, scenario.system, args.json)
        resolver = find_chart(resolvers, args.chart)
        if args.option == ["list"]:
            print("\n".join(s.describe() for s in resolver.settings())
                  or f"the {resolver.id} chart has no settings: the dice alone decide it")
            return EXIT_OK
        answer = resolver.resolve(args.option)
    except (UnknownName, EngineError, SettingError) as problem:
        raise UsageError(str(problem)) from None
    print(json.dumps(answer.as_dict(), indent=2) if args.json else answer.render())
    return EXIT_OK


def _list(resolvers: dict, system: str | None, as_json: bool) -> int:
    if as_json:
        print(json.dumps([{"chart": r.id, "title": r.title, "source": r.source}
                          for r in resolvers.values()], indent=2))
        return EXIT_OK
    if not resolvers:
        print(f"the {system} rules have no charts resolved on their own; "
              "battles: sandtable playtest battle")
        return EXIT_OK
    width = max(len(chart) for chart in resolvers)
    for resolver in resolvers.values():
        print(f"{resolver.id:<{width}}  {resolver.title} ({resolver.source})")
    print("\ncombat and barrage: sandtable playtest battle SCENARIO --attacker ... --defender ... "
          "--at HEX [--raid]")
    return EXIT_OK
