/** Small file-storage helpers shared by the services that keep state on disk (RCA, DC). */
package eu.vpki.common.storage;
