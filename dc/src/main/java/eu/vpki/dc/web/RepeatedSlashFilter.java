package eu.vpki.dc.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.IOException;
import java.util.regex.Pattern;

/**
 * Serves {@code //getctl/{rca}} as {@code /getctl/{rca}} (any run of slashes in the path counts as
 * one). OBU clients build the download URL by appending {@code /getctl/...} to the DC URL exactly as
 * the CTL lists it, and a listed URL that ends in {@code /} (as ours do) gives a doubled slash;
 * production DCs answer it, so this one does too. Only the path is rewritten, never the query.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
public class RepeatedSlashFilter extends OncePerRequestFilter {
    private static final Pattern REPEATED = Pattern.compile("/{2,}");

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String uri = request.getRequestURI();
        if (uri == null || !uri.contains("//")) {
            chain.doFilter(request, response);
            return;
        }
        String collapsed = REPEATED.matcher(uri).replaceAll("/");
        chain.doFilter(new HttpServletRequestWrapper(request) {
            @Override
            public String getRequestURI() {
                return collapsed;
            }

            @Override
            public StringBuffer getRequestURL() {
                StringBuffer url = super.getRequestURL();
                int path = url.indexOf(uri);
                return path < 0 ? url : url.replace(path, path + uri.length(), collapsed);
            }

            @Override
            public String getServletPath() {
                return REPEATED.matcher(super.getServletPath()).replaceAll("/");
            }
        }, response);
    }
}
