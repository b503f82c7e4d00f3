package eu.vpki.common.etsi.ts103097;

import java.util.List;

/**
 * A certificate's validity region (IEEE 1609.2 GeographicRegion). Latitudes and longitudes are in
 * 1/10 micro degrees, as on the wire. Polygonal regions are decoded but not issued.
 */
public sealed interface GeographicRegion {
    record Circular(long centerLatitude, long centerLongitude, int radiusMetres) implements GeographicRegion {
    }

    record Rectangle(long northWestLatitude, long northWestLongitude, long southEastLatitude, long southEastLongitude) {
        boolean contains(long lat, long lon) {
            return lat <= northWestLatitude && lat >= southEastLatitude && lon >= northWestLongitude && lon <= southEastLongitude;
        }

        boolean contains(Rectangle r) {
            return contains(r.northWestLatitude, r.northWestLongitude) && contains(r.southEastLatitude, r.southEastLongitude);
        }
    }

    record Rectangular(List<Rectangle> rectangles) implements GeographicRegion {
        public Rectangular {
            rectangles = List.copyOf(rectangles);
        }
    }

    /** Countries by their UN M.49 numeric code (e.g. 276 Germany, 250 France, 840 USA). */
    record Countries(List<Integer> countryCodes) implements GeographicRegion {
        public Countries {
            countryCodes = List.copyOf(countryCodes);
        }
    }

    record Polygonal(int points) implements GeographicRegion {
    }

    /**
     * Whether {@code inner} lies inside {@code outer} as far as can be decided exactly; a missing
     * outer region means "anywhere the issuer is valid". Mixed shapes are accepted only where
     * containment is certain (a circle inside a rectangle by its bounding box); otherwise refused.
     */
    static boolean contains(GeographicRegion outer, GeographicRegion inner) {
        if (outer == null) {
            return true;
        }
        if (inner == null) {
            return false;
        }
        if (outer instanceof Countries oc && inner instanceof Countries ic) {
            return oc.countryCodes().containsAll(ic.countryCodes());
        }
        if (outer instanceof Rectangular or && inner instanceof Rectangular ir) {
            return ir.rectangles().stream().allMatch(r -> or.rectangles().stream().anyMatch(o -> o.contains(r)));
        }
        if (outer instanceof Circular oc && inner instanceof Circular ic) {
            double d = distanceMetres(oc.centerLatitude(), oc.centerLongitude(), ic.centerLatitude(), ic.centerLongitude());
            return d + ic.radiusMetres() <= oc.radiusMetres();
        }
        if (outer instanceof Rectangular or && inner instanceof Circular ic) {
            double degLat = ic.radiusMetres() / 111_320.0 * 1e7;
            double cos = Math.max(0.01, Math.cos(Math.toRadians(ic.centerLatitude() / 1e7)));
            double degLon = degLat / cos;
            Rectangle box = new Rectangle((long) Math.ceil(ic.centerLatitude() + degLat), (long) Math.floor(ic.centerLongitude() - degLon),
                    (long) Math.floor(ic.centerLatitude() - degLat), (long) Math.ceil(ic.centerLongitude() + degLon));
            return or.rectangles().stream().anyMatch(o -> o.contains(box));
        }
        return outer.equals(inner);
    }

    private static double distanceMetres(long lat1, long lon1, long lat2, long lon2) {
        double p1 = Math.toRadians(lat1 / 1e7);
        double p2 = Math.toRadians(lat2 / 1e7);
        double dp = p2 - p1;
        double dl = Math.toRadians((lon2 - lon1) / 1e7);
        double a = Math.sin(dp / 2) * Math.sin(dp / 2) + Math.cos(p1) * Math.cos(p2) * Math.sin(dl / 2) * Math.sin(dl / 2);
        return 2 * 6_371_000.0 * Math.asin(Math.min(1, Math.sqrt(a)));
    }
}
