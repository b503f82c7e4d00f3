package eu.vpki.common.fleet;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.ts103097.GeographicRegion;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Text form of a station's region in its record: empty (no region: anywhere the EA is valid),
 * {@code countries:276,250}, {@code circle:lat,lon,radius} or {@code rect:nwLat,nwLon,seLat,seLon;...}
 * (latitudes and longitudes in 1/10 micro degrees, as on the wire). Polygons are not registrable.
 */
public final class Regions {
    private Regions() {
    }

    public static String encode(GeographicRegion region) {
        if (region == null) {
            return "";
        }
        if (region instanceof GeographicRegion.Countries c) {
            return "countries:" + String.join(",", c.countryCodes().stream().map(String::valueOf).toList());
        }
        if (region instanceof GeographicRegion.Circular c) {
            return "circle:" + c.centerLatitude() + "," + c.centerLongitude() + "," + c.radiusMetres();
        }
        if (region instanceof GeographicRegion.Rectangular r) {
            return "rect:" + String.join(";", r.rectangles().stream()
                    .map(x -> x.northWestLatitude() + "," + x.northWestLongitude() + "," + x.southEastLatitude() + ","
                            + x.southEastLongitude())
                    .toList());
        }
        throw new PkiException(ErrorCode.INVALID_ARGUMENT, "polygonal regions are not registrable");
    }

    public static GeographicRegion decode(String text) {
        if (text == null || text.isEmpty()) {
            return null;
        }
        int colon = text.indexOf(':');
        String kind = text.substring(0, colon);
        String body = text.substring(colon + 1);
        return switch (kind) {
            case "countries" -> new GeographicRegion.Countries(Arrays.stream(body.split(",")).map(Integer::valueOf).toList());
            case "circle" -> {
                String[] p = body.split(",");
                yield new GeographicRegion.Circular(Long.parseLong(p[0]), Long.parseLong(p[1]), Integer.parseInt(p[2]));
            }
            case "rect" -> {
                List<GeographicRegion.Rectangle> rectangles = new ArrayList<>();
                for (String r : body.split(";")) {
                    String[] p = r.split(",");
                    rectangles.add(new GeographicRegion.Rectangle(Long.parseLong(p[0]), Long.parseLong(p[1]),
                            Long.parseLong(p[2]), Long.parseLong(p[3])));
                }
                yield new GeographicRegion.Rectangular(rectangles);
            }
            default -> throw new IllegalArgumentException("unknown region form " + kind);
        };
    }
}
