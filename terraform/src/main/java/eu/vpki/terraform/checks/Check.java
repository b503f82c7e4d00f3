package eu.vpki.terraform.checks;

import java.util.List;

/** A structural property of the deployment. */
public interface Check {

    String id();

    List<Violation> run(Deployment deployment);
}
