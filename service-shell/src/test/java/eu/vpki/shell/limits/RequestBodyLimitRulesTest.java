package eu.vpki.shell.limits;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Which limit a path gets: the first rule that matches, whether its pattern is a literal path (looked up) or a pattern (matched). */
class RequestBodyLimitRulesTest {
    private final RequestBodyLimit wide = new RequestBodyLimit("wide", List.of("/ea/**"), 100);
    private final RequestBodyLimit exact = new RequestBodyLimit("exact", List.of("/ea/enrolment", "/aa/authorization"), 200);
    private final RequestBodyLimit root = new RequestBodyLimit("root", List.of("/"), 300);

    @Test
    void literalPaths_getTheirRule_unlessAnEarlierPatternRuleCoversThem() {
        RequestBodyLimits filter = new RequestBodyLimits(List.of(wide, exact, root), 50);
        assertThat(filter.limitOf("/ea/enrolment")).isSameAs(wide);
        assertThat(filter.limitOf("/aa/authorization")).isSameAs(exact);
        assertThat(filter.limitOf("/")).isSameAs(root);

        RequestBodyLimits exactFirst = new RequestBodyLimits(List.of(exact, wide), 50);
        assertThat(exactFirst.limitOf("/ea/enrolment")).isSameAs(exact);
        assertThat(exactFirst.limitOf("/ea/authorization-validation")).isSameAs(wide);
    }

    @Test
    void pathsThatAreNotLiterallyARule_areMatched_slashRunsCountingAsOne() {
        RequestBodyLimits filter = new RequestBodyLimits(List.of(exact, wide), 50);
        assertThat(filter.limitOf("//aa//authorization")).isSameAs(exact);
        assertThat(filter.limitOf("/aa/%61uthorization")).isSameAs(exact);
        assertThat(filter.limitOf("/aa/authorization/")).extracting(RequestBodyLimit::name).isEqualTo("vpki.http.max-request-bytes");
        assertThat(filter.limitOf("/AA/authorization").maxBytes()).isEqualTo(50);
        assertThat(filter.limitOf("/operator/v1/stations").maxBytes()).isEqualTo(50);
    }
}
