package eu.vpki.shell.security;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.shell.problem.Problems;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.security.autoconfigure.UserDetailsServiceAutoConfiguration;
import org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.http.HttpHeaders;
import org.springframework.security.authentication.AuthenticationManager;
import org.springframework.security.authentication.AuthenticationManagerResolver;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configuration.EnableWebSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.authentication.AuthenticationFilter;
import org.springframework.security.web.authentication.www.BasicAuthenticationFilter;
import org.springframework.security.web.servlet.util.matcher.PathPatternRequestMatcher;
import org.springframework.security.web.util.matcher.OrRequestMatcher;
import org.springframework.security.web.util.matcher.RequestMatcher;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One stateless Spring Security filter chain for every {@link BearerApi} bean: a request to one of
 * their paths needs {@code Authorization: Bearer <token>} that the API's {@link BearerTokens} accept;
 * the principal is then the request's user principal ({@code request.getUserPrincipal()}, a
 * controller's {@link java.security.Principal} argument). Checked before any controller runs or any
 * body is read. Refusals are problems: 401 {@code UNAUTHENTICATED} (no or unknown token, with
 * {@code WWW-Authenticate: Bearer}), 403 {@code API_DISABLED}; a client that presented more than
 * {@code vpki.security.failed-attempts.max-failures} unknown tokens within the window gets 429
 * {@code TOO_MANY_ATTEMPTS} with {@code Retry-After} until it ends ({@link FailedAttempts}). With
 * {@code vpki.security.require-tls} (the default) a request that did not arrive over TLS is refused
 * first, 403 {@code TLS_REQUIRED}, its token never looked at ({@link TransportProperties}). Requests to other paths meet no
 * security filter at all, and Spring Boot's generated default user is not created.
 */
@AutoConfiguration(before = {ServletWebSecurityAutoConfiguration.class, UserDetailsServiceAutoConfiguration.class})
@ConditionalOnClass(SecurityFilterChain.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@EnableWebSecurity
@EnableConfigurationProperties({FailedAttemptsProperties.class, TransportProperties.class})
public class BearerSecurityAutoConfiguration {
    private static final Logger log = LoggerFactory.getLogger(BearerSecurityAutoConfiguration.class);
    private static final String BEARER = "Bearer ";

    /** Resolves which API a request is for. */
    private record Protected(BearerApi api, RequestMatcher matcher) {
    }

    @Bean
    FailedAttempts failedAttempts(FailedAttemptsProperties properties, Clock clock) {
        return new FailedAttempts(properties.maxFailures(), properties.window(), properties.maxClients(), clock);
    }

    @Bean
    SecurityFilterChain bearerApis(HttpSecurity http, ObjectProvider<BearerApi> apis, FailedAttempts attempts,
                                   TransportProperties transport, Environment environment)
            throws Exception {
        List<Protected> protectedApis = new ArrayList<>();
        for (BearerApi api : apis.orderedStream().toList()) {
            List<RequestMatcher> matchers = api.pathPatterns().stream()
                    .<RequestMatcher>map(PathPatternRequestMatcher::pathPattern).toList();
            protectedApis.add(new Protected(api, new OrRequestMatcher(matchers)));
            log.info("bearer-token API '{}' on {}{}", api.name(), api.pathPatterns(), api.tokens().enabled() ? "" : " (disabled)");
        }
        RequestMatcher any = protectedApis.isEmpty()
                ? request -> false
                : new OrRequestMatcher(protectedApis.stream().map(Protected::matcher).toList());
        if (transport.requireTls() && !protectedApis.isEmpty() && !tlsConfigured(environment)) {
            log.warn("vpki.security.require-tls is on but this server has no TLS (server.ssl.bundle): every call of {} will be "
                    + "refused {}", protectedApis.stream().map(p -> p.api().name()).toList(), ErrorCode.TLS_REQUIRED);
        }

        AuthenticationManagerResolver<HttpServletRequest> managers = request -> manager(find(protectedApis, request));
        AuthenticationFilter bearer = new AuthenticationFilter(managers, BearerSecurityAutoConfiguration::token);
        bearer.setRequestMatcher(any);
        bearer.setSuccessHandler((request, response, authentication) -> {
        });
        bearer.setFailureHandler((request, response, failure) -> {
            if (failure instanceof BearerRefusal refusal && refusal.code() == ErrorCode.UNAUTHENTICATED) {
                attempts.failed(request.getRemoteAddr());
            }
            refuse(request, response, failure);
        });

        return http.securityMatcher(any)
                .authorizeHttpRequests(authorize -> authorize.anyRequest().authenticated())
                .addFilterBefore(new TlsOnly(transport.requireTls()), BasicAuthenticationFilter.class)
                .addFilterBefore(new AttemptLimit(attempts), BasicAuthenticationFilter.class)
                .addFilterAt(bearer, BasicAuthenticationFilter.class)
                .exceptionHandling(e -> e.authenticationEntryPoint((request, response, failure) -> {
                    Optional<BearerApi> api = find(protectedApis, request);
                    refuse(request, response, api.isPresent() && !api.get().tokens().enabled()
                            ? disabled(api.get())
                            : new BearerRefusal(ErrorCode.UNAUTHENTICATED, "an 'Authorization: Bearer <token>' header is required"));
                }))
                .sessionManagement(s -> s.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .csrf(c -> c.disable())
                .requestCache(c -> c.disable())
                .logout(c -> c.disable())
                .build();
    }

    /** Whether this server's port speaks TLS (Spring Boot's {@code server.ssl.*}). */
    private static boolean tlsConfigured(Environment environment) {
        return environment.getProperty("server.ssl.enabled", Boolean.class, true)
                && (environment.containsProperty("server.ssl.bundle") || environment.containsProperty("server.ssl.key-store")
                        || environment.containsProperty("server.ssl.certificate"));
    }

    /**
     * With {@code require}: refuses a call that did not arrive over TLS, 403 {@code TLS_REQUIRED}, before
     * its token is looked at or counted (a token sent in clear is never accepted; the caller is told to
     * take it as disclosed).
     */
    private static final class TlsOnly extends OncePerRequestFilter {
        private final boolean require;

        TlsOnly(boolean require) {
            this.require = require;
        }

        @Override
        protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
                throws ServletException, IOException {
            if (!require || request.isSecure()) {
                chain.doFilter(request, response);
                return;
            }
            boolean presented = request.getHeader(HttpHeaders.AUTHORIZATION) != null;
            log.warn("{} {} refused: {} plain HTTP from {}{}", request.getMethod(), request.getRequestURI(), ErrorCode.TLS_REQUIRED,
                    request.getRemoteAddr(), presented ? "; it sent credentials in clear: take them as disclosed and rotate them" : "");
            Problems.write(response, Problems.of(ErrorCode.TLS_REQUIRED, "this API accepts credentials over TLS (https) only"
                    + (presented ? "; the credentials sent over plain HTTP were not looked at and must be taken as disclosed" : "")));
        }
    }

    /**
     * Refuses every call of a client that presented too many unknown tokens in the current window
     * ({@link FailedAttempts}): 429 {@code TOO_MANY_ATTEMPTS} with {@code Retry-After}, before the token is looked at.
     */
    private static final class AttemptLimit extends OncePerRequestFilter {
        private final FailedAttempts attempts;

        AttemptLimit(FailedAttempts attempts) {
            this.attempts = attempts;
        }

        @Override
        protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
                throws ServletException, IOException {
            Optional<Duration> blocked = attempts.blockedFor(request.getRemoteAddr());
            if (blocked.isEmpty()) {
                chain.doFilter(request, response);
                return;
            }
            long seconds = Math.max(1, (blocked.get().toMillis() + 999) / 1000);
            log.info("{} {} refused: {} client {} for {} s", request.getMethod(), request.getRequestURI(), ErrorCode.TOO_MANY_ATTEMPTS,
                    request.getRemoteAddr(), seconds);
            response.setHeader(HttpHeaders.RETRY_AFTER, Long.toString(seconds));
            Problems.write(response, Problems.of(ErrorCode.TOO_MANY_ATTEMPTS,
                    "too many unknown bearer tokens from this client; retry after " + seconds + " s"));
        }
    }

    /** No user name/password store: keeps Spring Boot from generating a default user and printing its password. */
    @Bean
    AuthenticationManager bearerAuthenticationManager() {
        return authentication -> {
            throw new BearerRefusal(ErrorCode.UNAUTHENTICATED, "only bearer tokens are accepted");
        };
    }

    private static AuthenticationManager manager(Optional<BearerApi> api) {
        return authentication -> {
            if (api.isEmpty() || !(authentication instanceof BearerAuthentication presented)) {
                throw new BearerRefusal(ErrorCode.UNAUTHENTICATED, "no bearer-token API serves this path");
            }
            BearerTokens tokens = api.get().tokens();
            if (!tokens.enabled()) {
                throw disabled(api.get());
            }
            return tokens.principalOf(presented.token()).map(BearerAuthentication::accepted)
                    .orElseThrow(() -> new BearerRefusal(ErrorCode.UNAUTHENTICATED, "the bearer token is not valid for the "
                            + api.get().name() + " API"));
        };
    }

    private static BearerRefusal disabled(BearerApi api) {
        return new BearerRefusal(ErrorCode.API_DISABLED, "the " + api.name() + " API is disabled by configuration");
    }

    private static Optional<BearerApi> find(List<Protected> apis, HttpServletRequest request) {
        return apis.stream().filter(p -> p.matcher().matches(request)).map(Protected::api).findFirst();
    }

    /** The token of an {@code Authorization: Bearer <token>} header (scheme case-insensitive), else none. */
    private static BearerAuthentication token(HttpServletRequest request) {
        String header = request.getHeader(HttpHeaders.AUTHORIZATION);
        if (header == null || !header.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return null;
        }
        String token = header.substring(BEARER.length()).strip();
        return BearerAuthentication.presented(token);
    }

    private static void refuse(HttpServletRequest request, HttpServletResponse response, AuthenticationException e) throws IOException {
        ErrorCode code = e instanceof BearerRefusal refusal ? refusal.code() : ErrorCode.UNAUTHENTICATED;
        log.info("{} {} refused: {} {}", request.getMethod(), request.getRequestURI(), code, e.getMessage());
        Problems.write(response, Problems.of(code, e.getMessage()));
    }
}
