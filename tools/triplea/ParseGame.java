// Loads a game file with TripleA's own parser (games.strategy.engine.data.GameParser) and, given
// a map folder, checks the game against the map's geometry with TripleA's MapData.verify. Prints
// what TripleA made of the game as JSON on stdout; a refusal goes to stderr with exit status 1.
//
//   java -Djava.awt.headless=true -cp /usr/share/games/triplea/bin/triplea.jar \
//        tools/triplea/ParseGame.java GAME.xml [MAP_DIR]
//
// Written for TripleA 1.9 (Debian's `triplea` package); tests/test_triplea_engine.py runs it.

import games.strategy.engine.data.GameData;
import games.strategy.engine.data.GameParser;
import games.strategy.engine.data.GameStep;
import games.strategy.engine.data.NamedAttachable;
import games.strategy.engine.data.PlayerID;
import games.strategy.engine.data.ProductionFrontier;
import games.strategy.engine.data.ProductionRule;
import games.strategy.engine.data.Resource;
import games.strategy.engine.data.Territory;
import games.strategy.engine.data.Unit;
import games.strategy.engine.data.UnitType;
import games.strategy.triplea.ResourceLoader;
import games.strategy.triplea.attachments.TerritoryAttachment;
import games.strategy.triplea.attachments.UnitAttachment;
import games.strategy.triplea.ui.mapdata.MapData;

import java.io.File;
import java.io.InputStream;
import java.io.PrintStream;
import java.lang.reflect.Constructor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;

public class ParseGame {
  public static void main(String[] args) throws Exception {
    if (args.length < 1 || args.length > 2) {
      System.err.println("usage: ParseGame GAME.xml [MAP_DIR]");
      System.exit(2);
    }
    // TripleA logs its own complaints on stdout; keep stdout for the JSON.
    PrintStream out = System.out;
    System.setOut(System.err);
    GameData data;
    try (InputStream in = Files.newInputStream(Path.of(args[0]))) {
      data = new GameParser(new File(args[0]).toURI().toString()).parse(in, new AtomicReference<>(), false);
    } catch (Throwable refused) {
      System.err.println("TripleA refused the game: " + describe(refused));
      System.exit(1);
      return;
    }
    // The check TripleA's game chooser makes before it lists a game (NewGameChooserEntry).
    Object mapName = data.getProperties().get("mapName");
    if (!(mapName instanceof String) || ((String) mapName).trim().isEmpty()) {
      System.err.println("TripleA refused the game: Map name property not set on game");
      System.exit(1);
    }
    String verified = null;
    if (args.length == 2) {
      try {
        verifyMap(data, args[1]);
        verified = "ok";
      } catch (Throwable refused) {
        System.err.println("TripleA's map data refused the game: " + describe(refused));
        System.exit(1);
      }
    }
    out.println(summary(data, (String) mapName, verified));
  }

  static String describe(Throwable problem) {
    StringBuilder text = new StringBuilder(problem.toString());
    for (Throwable cause = problem.getCause(); cause != null && cause != problem; cause = cause.getCause()) {
      text.append(" <- ").append(cause);
    }
    return text.toString();
  }

  // MapData reads the map folder through a ResourceLoader, whose constructor TripleA keeps
  // private (it finds maps in the user's download folder). map.properties is required but holds
  // only drawing settings; a map folder without one is given an empty one.
  static void verifyMap(GameData data, String mapDir) throws Exception {
    File folder = new File(mapDir, "map").isDirectory() ? new File(mapDir, "map") : new File(mapDir);
    Path settings = Files.createTempDirectory("triplea-map");
    Files.writeString(settings.resolve("map.properties"), "");
    Constructor<ResourceLoader> make = ResourceLoader.class.getDeclaredConstructor(String.class, String[].class);
    make.setAccessible(true);
    try (ResourceLoader loader = make.newInstance(folder.getName(),
        new String[] {folder.getAbsolutePath(), settings.toString()})) {
      new MapData(loader).verify(data);
    } finally {
      Files.deleteIfExists(settings.resolve("map.properties"));
      Files.deleteIfExists(settings);
    }
  }

  static String summary(GameData data, String mapName, String verified) {
    Json json = new Json();
    json.open('{');
    json.key("name").value(data.getGameName());
    json.key("version").value(String.valueOf(data.getGameVersion()));
    json.key("mapName").value(mapName);
    json.key("diceSides").value(data.getDiceSides());
    json.key("mapVerified").value(verified);
    json.key("territories").open('[');
    for (Territory territory : data.getMap().getTerritories()) {
      json.open('{');
      json.key("name").value(territory.getName());
      json.key("water").value(territory.isWater());
      json.key("owner").value(territory.getOwner() == null ? null : territory.getOwner().getName());
      TerritoryAttachment attachment = TerritoryAttachment.get(territory);
      if (attachment != null) {
        json.key("production").value(attachment.getProduction());
        json.key("capital").value(attachment.getCapital());
        json.key("victoryCity").value(attachment.getVictoryCity());
        json.key("impassable").value(attachment.getIsImpassable());
        PlayerID original = attachment.getOriginalOwner();
        json.key("originalOwner").value(original == null ? null : original.getName());
      }
      Map<String, Integer> units = new TreeMap<>();
      for (Unit unit : territory.getUnits().getUnits()) {
        units.merge(unit.getType().getName() + "\t" + unit.getOwner().getName(), 1, Integer::sum);
      }
      json.key("units").open('[');
      for (Map.Entry<String, Integer> stack : units.entrySet()) {
        String[] parts = stack.getKey().split("\t");
        json.open('[').value(parts[0]).value(parts[1]).value(stack.getValue()).close(']');
      }
      json.close(']');
      json.close('}');
    }
    json.close(']');
    json.key("connections").open('[');
    for (Territory territory : data.getMap().getTerritories()) {
      for (Territory other : data.getMap().getNeighbors(territory)) {
        if (territory.getName().compareTo(other.getName()) < 0) {
          json.open('[').value(territory.getName()).value(other.getName()).close(']');
        }
      }
    }
    json.close(']');
    json.key("players").open('[');
    for (PlayerID player : data.getPlayerList().getPlayers()) {
      json.open('{');
      json.key("name").value(player.getName());
      json.key("alliances").open('[');
      for (String alliance : data.getAllianceTracker().getAlliancesPlayerIsIn(player)) {
        json.value(alliance);
      }
      json.close(']');
      json.key("resources").open('{');
      for (Resource resource : data.getResourceList().getResources()) {
        json.key(resource.getName()).value(player.getResources().getQuantity(resource));
      }
      json.close('}');
      ProductionFrontier frontier = player.getProductionFrontier();
      json.key("production").open('[');
      if (frontier != null) {
        for (ProductionRule rule : frontier.getRules()) {
          json.open('{');
          json.key("rule").value(rule.getName());
          json.key("costs").open('{');
          for (Resource resource : rule.getCosts().keySet()) {
            json.key(resource.getName()).value(rule.getCosts().getInt(resource));
          }
          json.close('}');
          json.key("results").open('{');
          for (NamedAttachable result : rule.getResults().keySet()) {
            json.key(result.getName()).value(rule.getResults().getInt(result));
          }
          json.close('}');
          json.close('}');
        }
      }
      json.close(']');
      json.close('}');
    }
    json.close(']');
    json.key("unitTypes").open('[');
    for (UnitType type : data.getUnitTypeList().getAllUnitTypes()) {
      UnitAttachment unit = UnitAttachment.get(type);
      json.open('{');
      json.key("name").value(type.getName());
      json.key("movement").value(unit.getMovement());
      json.key("attack").value(unit.getAttack());
      json.key("defense").value(unit.getDefense());
      json.key("air").value(unit.getIsAir());
      json.key("sea").value(unit.getIsSea());
      json.key("hitPoints").value(unit.getHitPoints());
      json.close('}');
    }
    json.close(']');
    json.key("steps").open('[');
    for (GameStep step : data.getSequence()) {
      json.open('[').value(step.getName()).value(step.getDelegate().getName())
          .value(step.getPlayerId() == null ? null : step.getPlayerId().getName()).close(']');
    }
    json.close(']');
    json.close('}');
    return json.toString();
  }

  /** Just enough of a JSON writer for the summary. */
  static final class Json {
    private final StringBuilder text = new StringBuilder();
    private final List<Boolean> first = new ArrayList<>();
    private boolean afterKey;

    Json open(char bracket) {
      separate();
      text.append(bracket);
      first.add(true);
      return this;
    }

    Json close(char bracket) {
      text.append(bracket);
      first.remove(first.size() - 1);
      return this;
    }

    Json key(String name) {
      separate();
      quote(name);
      text.append(':');
      afterKey = true;
      return this;
    }

    Json value(Object value) {
      separate();
      if (value == null) {
        text.append("null");
      } else if (value instanceof Number || value instanceof Boolean) {
        text.append(value);
      } else {
        quote(value.toString());
      }
      return this;
    }

    private void separate() {
      if (afterKey) {
        afterKey = false;
        return;
      }
      if (!first.isEmpty()) {
        if (!first.get(first.size() - 1)) {
          text.append(',');
        }
        first.set(first.size() - 1, false);
      }
    }

    private void quote(String value) {
      text.append('"');
      for (char c : value.toCharArray()) {
        if (c == '"' || c == '\\') {
          text.append('\\').append(c);
        } else if (c < 0x20) {
          text.append(String.format("\\u%04x", (int) c));
        } else {
          text.append(c);
        }
      }
      text.append('"');
    }

    @Override
    public String toString() {
      return text.toString();
    }
  }
}
