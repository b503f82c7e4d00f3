package eu.vpki.rca.web;

import eu.vpki.rca.core.AdminToken;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpHeaders;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/** Every {@code /admin/**} request needs the admin bearer token, checked before the body is even read. */
@Configuration(proxyBeanMethods = false)
public class AdminAuthentication implements WebMvcConfigurer {
    private final AdminToken token;

    public AdminAuthentication(AdminToken token) {
        this.token = token;
    }

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(new HandlerInterceptor() {
            @Override
            public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
                token.authenticate(request.getHeader(HttpHeaders.AUTHORIZATION));
                return true;
            }
        }).addPathPatterns("/admin", "/admin/**");
    }
}
