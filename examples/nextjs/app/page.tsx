export default function Home() {
  return <p>GET /api/weather?city=Lisbon runs generateText with a tool.</p>;
}
