package dev.cairn.client;

/** The filters of {@code GET proposals}; an empty or null field does not filter. */
public record ProposalFilter(
        String type, String status, String taskName, String agentName, String q) {

    /** Every proposal. */
    public static final ProposalFilter ALL = new ProposalFilter(null, null, null, null, null);

    /** The proposals in one status ({@code pending}, {@code accepted}, ...). */
    public static ProposalFilter ofStatus(String status) {
        return new ProposalFilter(null, status, null, null, null);
    }

    void addTo(Query query) {
        query.add("type", type);
        query.add("status", status);
        query.add("taskName", taskName);
        query.add("agentName", agentName);
        query.add("q", q);
    }
}
