/** Tests of the request limits: body limits over real HTTP, the container's limit defaults. */
package eu.vpki.shell.limits;
