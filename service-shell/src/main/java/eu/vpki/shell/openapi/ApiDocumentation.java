package eu.vpki.shell.openapi;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.shell.problem.ProblemStatus;
import eu.vpki.shell.problem.Problems;
import eu.vpki.shell.security.BearerApi;
import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.headers.Header;
import io.swagger.v3.oas.models.media.ArraySchema;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springdoc.core.customizers.OperationCustomizer;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.PathContainer;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What the shell adds to a service's generated OpenAPI description, so that every API documents
 * its errors and its security the same way:
 * <ul>
 *   <li>the {@value #PROBLEM} schema: the one RFC 7807 shape of {@link Problems}, its {@code error}
 *       enumerating every {@link ErrorCode};</li>
 *   <li>on every operation, a problem response per status it can answer, each listing its error
 *       names and codes in {@value #ERRORS}: the operation's {@link ProblemResponses}, 400
 *       {@code INVALID_ARGUMENT}, 413 {@code OVERSIZE_INPUT} and 415 {@code UNEXPECTED_CONTENT} where it reads a body, 500
 *       {@code INTERNAL_ERROR} everywhere;</li>
 *   <li>for every {@link BearerApi}: an HTTP bearer security scheme named after it, required by the
 *       operations on its paths, which also answer 401 {@code UNAUTHENTICATED} (with
 *       {@code WWW-Authenticate}), 403 {@code API_DISABLED} and {@code TLS_REQUIRED}, and 429 {@code TOO_MANY_ATTEMPTS}.</li>
 * </ul>
 */
public final class ApiDocumentation implements OperationCustomizer, OpenApiCustomizer {
    /** Name of the problem schema under {@code components.schemas}. */
    public static final String PROBLEM = "Problem";
    /** Name of the schema enumerating the stable error names. */
    public static final String ERROR_NAME = "ErrorName";
    /** Extension of a problem response listing the errors answered with its status. */
    public static final String ERRORS = "x-vpki-errors";
    private static final String PROBLEM_JSON = org.springframework.http.MediaType.APPLICATION_PROBLEM_JSON_VALUE;

    /** A bearer API and the parsed path patterns it claims. */
    private record Secured(BearerApi api, List<PathPattern> patterns) {
        boolean claims(String path) {
            PathContainer container = PathContainer.parsePath(path);
            return patterns.stream().anyMatch(p -> p.matches(container));
        }
    }

    private final List<Secured> secured;

    public ApiDocumentation(List<BearerApi> apis) {
        this.secured = apis.stream().map(api -> new Secured(api,
                api.pathPatterns().stream().map(PathPatternParser.defaultInstance::parse).toList())).toList();
    }

    /** A problem an operation documents: its error at the status it is answered with. */
    record Answer(HttpStatus status, ErrorCode code) {
    }

    /** What every operation of a bearer API answers besides its own problems (written by the security filters). */
    private static final List<Answer> BEARER = List.of(
            new Answer(HttpStatus.UNAUTHORIZED, ErrorCode.UNAUTHENTICATED),
            new Answer(ProblemStatus.of(ErrorCode.API_DISABLED), ErrorCode.API_DISABLED),
            new Answer(ProblemStatus.of(ErrorCode.TLS_REQUIRED), ErrorCode.TLS_REQUIRED),
            new Answer(ProblemStatus.of(ErrorCode.TOO_MANY_ATTEMPTS), ErrorCode.TOO_MANY_ATTEMPTS));

    /**
     * The problems the description of a controller method lists, apart from a bearer API's: its (and its
     * controller's) {@link ProblemResponses}, those of reading a body where it reads one, and the internal error.
     */
    static List<Answer> answers(HandlerMethod handler, boolean readsBody) {
        Set<ErrorCode> codes = EnumSet.noneOf(ErrorCode.class);
        ProblemResponses onType = AnnotatedElementUtils.findMergedAnnotation(handler.getBeanType(), ProblemResponses.class);
        ProblemResponses onMethod = handler.getMethodAnnotation(ProblemResponses.class);
        for (ProblemResponses declared : new ProblemResponses[]{onType, onMethod}) {
            if (declared != null) {
                codes.addAll(Arrays.asList(declared.value()));
            }
        }
        List<Answer> answers = new ArrayList<>(codes.stream().map(code -> new Answer(ProblemStatus.of(code), code)).toList());
        if (readsBody) {
            answers.add(new Answer(HttpStatus.BAD_REQUEST, ErrorCode.INVALID_ARGUMENT));
            answers.add(new Answer(ProblemStatus.of(ErrorCode.OVERSIZE_INPUT), ErrorCode.OVERSIZE_INPUT));
            answers.add(new Answer(HttpStatus.UNSUPPORTED_MEDIA_TYPE, ProblemStatus.codeOf(HttpStatus.UNSUPPORTED_MEDIA_TYPE)));
        }
        answers.add(new Answer(HttpStatus.INTERNAL_SERVER_ERROR, ErrorCode.INTERNAL_ERROR));
        return answers;
    }

    /**
     * The codes the description lists for the operation of {@code handler} at {@code path} (its path
     * pattern, as the description names it): what a problem it answers may name. A handler reads a body
     * when a parameter is a {@code @RequestBody}, as springdoc decides.
     */
    public Set<ErrorCode> documented(HandlerMethod handler, String path) {
        boolean readsBody = Arrays.stream(handler.getMethodParameters()).anyMatch(p -> p.hasParameterAnnotation(RequestBody.class));
        Set<ErrorCode> codes = EnumSet.noneOf(ErrorCode.class);
        answers(handler, readsBody).forEach(a -> codes.add(a.code()));
        if (secured.stream().anyMatch(s -> s.claims(path))) {
            BEARER.forEach(a -> codes.add(a.code()));
        }
        return codes;
    }

    @Override
    public Operation customize(Operation operation, HandlerMethod handler) {
        answers(handler, operation.getRequestBody() != null).forEach(a -> answer(operation, a.status(), a.code()));
        return operation;
    }

    @Override
    public void customise(OpenAPI openApi) {
        Components components = openApi.getComponents() == null ? new Components() : openApi.getComponents();
        openApi.setComponents(components);
        components.addSchemas(PROBLEM, problemSchema());
        components.addSchemas(ERROR_NAME, errorNames());
        for (Secured s : secured) {
            components.addSecuritySchemes(s.api().name(), new SecurityScheme().type(SecurityScheme.Type.HTTP).scheme("bearer")
                    .description("'Authorization: Bearer <token>' of the " + s.api().name() + " API, checked before the body is read"));
        }
        if (openApi.getPaths() == null) {
            return;
        }
        openApi.getPaths().forEach((path, item) -> secured.stream().filter(s -> s.claims(path)).findFirst()
                .ifPresent(s -> item.readOperations().forEach(operation -> {
                    operation.addSecurityItem(new SecurityRequirement().addList(s.api().name()));
                    BEARER.forEach(a -> answer(operation, a.status(), a.code()));
                })));
    }

    /** Adds {@code code} to the problem response of {@code status}, creating it if needed. */
    private static void answer(Operation operation, HttpStatus status, ErrorCode code) {
        ApiResponses responses = operation.getResponses() == null ? new ApiResponses() : operation.getResponses();
        operation.setResponses(responses);
        String key = Integer.toString(status.value());
        ApiResponse response = responses.get(key);
        if (response == null || response.getExtensions() == null || !response.getExtensions().containsKey(ERRORS)) {
            response = new ApiResponse().content(new Content().addMediaType(PROBLEM_JSON,
                    new MediaType().schema(reference(PROBLEM))));
            response.addExtension(ERRORS, new ArrayList<Map<String, Object>>());
            headers(status).forEach(response::addHeaderObject);
            responses.addApiResponse(key, response);
        }
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> errors = (List<Map<String, Object>>) response.getExtensions().get(ERRORS);
        if (errors.stream().noneMatch(e -> code.name().equals(e.get("error")))) {
            Map<String, Object> error = new LinkedHashMap<>();
            error.put("error", code.name());
            error.put("code", code.code());
            errors.add(error);
        }
        response.setDescription("RFC 7807 problem: " + errors.stream().map(e -> (String) e.get("error"))
                .collect(Collectors.joining(", ")));
    }

    private static Map<String, Header> headers(HttpStatus status) {
        Map<String, Header> headers = new LinkedHashMap<>();
        Problems.headers(status).forEach((name, values) -> headers.put(name, new Header()
                .description(name.equals(HttpHeaders.WWW_AUTHENTICATE)
                        ? "the scheme to authenticate with"
                        : "seconds to wait before retrying")
                .schema(new StringSchema()._default(values.get(0)))));
        return headers;
    }

    /** The shape {@link Problems} writes. */
    static Schema<?> problemSchema() {
        Schema<?> fieldError = new ObjectSchema()
                .description("one invalid field of the request")
                .addProperty("field", new StringSchema().description("JSON path of the field, e.g. stations[3].publicKey"))
                .addProperty("code", new IntegerSchema().description("stable number of the error"))
                .addProperty("error", reference(ERROR_NAME))
                .addProperty("detail", new StringSchema());
        return new ObjectSchema()
                .description("RFC 7807 problem (application/problem+json), the one error shape of every vpki service")
                .addProperty("type", new StringSchema().format("uri")
                        .description(Problems.TYPE_PREFIX + " followed by the error name in lower case with dashes")
                        .example(Problems.type(ErrorCode.INVALID_KEY).toString()))
                .addProperty("title", new StringSchema().description("the error's summary"))
                .addProperty("status", new IntegerSchema().description("the HTTP status"))
                .addProperty("detail", new StringSchema().description("what was wrong (5xx: the summary only)"))
                .addProperty("instance", new StringSchema().format("uri-reference").description("the request path"))
                .addProperty("code", new IntegerSchema().description("stable number of the error (never renumbered)"))
                .addProperty("error", reference(ERROR_NAME))
                .addProperty("errors", new ArraySchema().items(fieldError).description("invalid input only: every invalid field"))
                .required(List.of("type", "title", "status", "code", "error"));
    }

    /** Every {@link ErrorCode} name: what {@code error} of a problem (and of each invalid field) can be. */
    static Schema<String> errorNames() {
        StringSchema names = new StringSchema();
        names.setEnum(Arrays.stream(ErrorCode.values()).map(ErrorCode::name).toList());
        return names.description("stable name of the error; its number is the problem's code");
    }

    private static Schema<?> reference(String schema) {
        return new Schema<>().$ref("#/components/schemas/" + schema);
    }
}
