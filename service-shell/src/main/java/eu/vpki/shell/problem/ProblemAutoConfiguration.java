package eu.vpki.shell.problem;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.webmvc.autoconfigure.error.ErrorMvcAutoConfiguration;
import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.context.annotation.Bean;

/** Registers {@link ProblemAdvice} and {@link ProblemErrorController} in every servlet service (and in its MVC slice tests). */
@AutoConfiguration(before = ErrorMvcAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
public class ProblemAutoConfiguration {

    @Bean
    ProblemAdvice problemAdvice(ObjectProvider<ProblemListener> listeners) {
        return new ProblemAdvice(listeners.orderedStream().toList());
    }

    @Bean
    @ConditionalOnMissingBean(ErrorController.class)
    ProblemErrorController problemErrorController() {
        return new ProblemErrorController();
    }
}
