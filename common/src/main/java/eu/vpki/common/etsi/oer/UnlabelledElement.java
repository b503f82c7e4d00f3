package eu.vpki.common.etsi.oer;

import org.bouncycastle.oer.Element;

import java.util.ArrayList;
import java.util.List;

/**
 * A BouncyCastle OER definition element whose debug label is never built. BouncyCastle 1.86's
 * encoder ({@code OEROutputStream.write}) builds a label for every element it writes, before
 * {@code debugPrint} looks whether debug output is on: {@code appendLabel(rangeExpression())},
 * which turns the element's {@code BigInteger} bounds into strings: 4.6 % of the crypto-only CPU
 * of an AT in a profile, 1.6 % with these elements (docs/benchmarks.md, section of 2026-11-25
 * 03:39). Both methods are public, non-final and used only for those labels, so this subclass
 * answers them with the empty string;
 * everything the encoding depends on (base type, bounds, children, defaults, switches, deferred
 * suppliers, extension blocks) is copied unchanged by BouncyCastle's own copy constructor.
 *
 * <p>{@link #copyOf} copies a whole built definition tree: each copy's {@link #getChildren()} returns
 * the copies of the original's children, which is how the encoder and the decoder walk the tree.
 * Elements that BouncyCastle makes while encoding stay its own (a deferred definition, expanded by
 * {@code Element.expandDeferredDefinition}, and the element an open type's {@code Switch} picks), so
 * their labels are still built: the saving covers the elements of the definitions themselves.
 * The decoder's own label strings ({@code OERInputStream.parseInternal}) are built from the label
 * field, which deferred definitions resolve by, so they stay. The encodings are the same bytes as
 * with BouncyCastle's definitions ({@code UnlabelledElementTest}: the ETSI test-suite certificates,
 * the fuzzing seeds of every message type and messages of a whole enrolment and authorization).
 */
final class UnlabelledElement extends Element {
    private final List<Element> children;

    private UnlabelledElement(Element original, Element parent) {
        // BouncyCastle's copy constructor: every field, the parent set to ours (it also points the
        // original's children at this copy, as its expandDeferredDefinition does; the originals are
        // a tree built for this copy alone and dropped afterwards)
        super(original, parent);
        List<Element> copies = new ArrayList<>(original.getChildren().size());
        for (Element child : original.getChildren()) {
            copies.add(new UnlabelledElement(child, this));
        }
        this.children = List.copyOf(copies);
    }

    /** A copy of a freshly built definition ({@code OERDefinition.Builder.build()}), all the way down. */
    static Element copyOf(Element definition) {
        return new UnlabelledElement(definition, null);
    }

    @Override
    public List<Element> getChildren() {
        return children;
    }

    @Override
    public String rangeExpression() {
        return "";
    }

    @Override
    public String appendLabel(String s) {
        return "";
    }
}
