package eu.vpki.shell.problem;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.FieldError;
import eu.vpki.common.error.InvalidInputException;
import eu.vpki.common.error.PkiException;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import java.util.List;

/** Throws what a service's controller may throw, to check the answer each gets. */
@RestController
public class ProblemTestController {
    record Item(String name, List<Long> psids) {
    }

    @GetMapping("/test/pki/{code}")
    String pki(@PathVariable String code) {
        throw new PkiException(ErrorCode.valueOf(code), "detail of " + code + " with internal secret 0xC0FFEE");
    }

    @PostMapping(path = "/test/items", consumes = "application/json")
    String items(@RequestBody List<Item> items) {
        throw new InvalidInputException(List.of(new FieldError("[0].name", ErrorCode.DUPLICATE_ID, "given twice"),
                new FieldError("[1].psids[0]", ErrorCode.UNKNOWN_PSID, "not a PSID this PKI issues")));
    }

    @GetMapping("/test/bug")
    String bug() {
        throw new IllegalStateException("internal secret 0xC0FFEE");
    }
}
