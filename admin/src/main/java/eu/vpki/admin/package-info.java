/**
 * The operator's admin tool ({@link eu.vpki.admin.AdminTool}): the first start of a PKI
 * ({@link eu.vpki.admin.BootstrapCommand}: shared secrets, the API TLS CA, the replication
 * channel's credentials ({@link eu.vpki.admin.ReplicationTls}), the Operator credentials file
 * ({@link eu.vpki.admin.OperatorCredentialsFile}) and the certification of an EA and an AA by the
 * RCA through its admin API ({@link eu.vpki.admin.RcaAdminClient})), the key ceremony
 * ({@link eu.vpki.admin.CeremonyCommand}), the RCA admin API and the Operator API from the command line
 * ({@link eu.vpki.admin.AuthoritiesCommand}, {@link eu.vpki.admin.StationsCommand}, over one
 * {@link eu.vpki.admin.ApiCall}), and the cluster's state ({@code status}, package {@code eu.vpki.admin.status}).
 * The local launcher of the testbed module runs the bootstrap steps through these classes.
 */
package eu.vpki.admin;
