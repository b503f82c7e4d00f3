package eu.vpki.common.etsi.ts102941;

import eu.vpki.common.etsi.ts103097.HashedId8;

/** A removal in a delta CTL (TS 102 941 CtlDelete). */
public sealed interface CtlDelete {
    record Certificate(HashedId8 id) implements CtlDelete {
    }

    record Dc(String url) implements CtlDelete {
        public Dc {
            Urls.require(url, "url");
        }
    }
}
